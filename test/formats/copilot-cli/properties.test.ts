import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { Session, type Line } from './session.js';

const TOOLS = ['bash', 'view', 'grep', 'edit'];

/** Per prompt: rounds of parallel calls (their tools), and whether a sub-agent's events interleave with the first round. */
const shapes = fc.record({
  model: fc.constantFrom('gpt-4.1', 'claude-sonnet-4.5'),
  turns: fc.array(fc.record({ subAgent: fc.boolean(), rounds: fc.array(fc.array(fc.constantFrom(...TOOLS), { minLength: 1, maxLength: 3 }), { maxLength: 3 }) }), { minLength: 1, maxLength: 4 }),
});
type Shape = { model: string; turns: Array<{ subAgent: boolean; rounds: string[][] }> };

/** A healthy session written the way Copilot CLI writes one. */
function build(shape: Shape): Session {
  const session = new Session(shape.model);
  let n = 0;
  shape.turns.forEach(({ subAgent, rounds }, turn) => {
    session.user(`task ${turn}`);
    rounds.forEach((tools, round) => {
      session.turn('', tools.map((name) => ({ id: `call_${turn}_${round}_${n++}`, name, output: `out ${n}` })));
      if (subAgent && round === 0) {
        session.event('user.message', { content: 'sub-task' }, { agentId: `agent-${turn}` });
        session.turn('', [{ id: `sub_${n++}`, name: 'bash', output: 'x' }], { agentId: `agent-${turn}` });
      }
    });
    session.turn(`done ${turn}`);
  });
  return session;
}

const BREAKS = ['killed', 'orphan', 'split', 'ephemeral'] as const;
type Break = (typeof BREAKS)[number];

const text = (lines: Line[]) => lines.map((line) => JSON.stringify(line)).join('\n') + '\n';

/** Breaks a healthy session at the pick-th completion, the main agent's or a sub-agent's; the finding expected (line and rule), or undefined when there is nothing to break. */
function inject(lines: Line[], kind: Break, pick: number): { text: string; expected: string } | undefined {
  const out = lines.map((line) => structuredClone(line));
  const completions = out.flatMap((line, i) => (line.type === 'tool.execution_complete' ? [i] : []));
  if (completions.length === 0) return undefined;
  const at = completions[pick % completions.length]!;
  const callId = out[at]!.data.toolCallId;
  const callLine = out.findIndex((line) => line.type === 'assistant.message' && line.data.toolRequests.some((request: Line) => request.toolCallId === callId));
  switch (kind) {
    case 'killed':
      // The runtime was killed before it recorded the completion: the chain goes on from the event before it.
      out[at + 1]!.parentId = out[at]!.parentId;
      out.splice(at, 1);
      return { text: text(out), expected: `${callLine + 1} missing-tool-result` };
    case 'orphan':
      out[at]!.data.toolCallId = 'call_nobody_made';
      return { text: text(out), expected: `${at + 1} orphan-tool-result` };
    case 'split': {
      out[at]!.data.result.content = 'first\nsecond';
      const whole = JSON.stringify(out[at]);
      return { text: text(out).replace(whole, whole.replace('first\\nsecond', 'first\nsecond')), expected: `${at + 1} invalid-json` };
    }
    case 'ephemeral':
      out.splice(at + 1, 0, { type: 'session.idle', data: {}, id: '00000000-0000-4000-8000-ffffffffffff', timestamp: out[at]!.timestamp, parentId: out[at]!.id, ephemeral: false });
      out[at + 2]!.parentId = out[at + 1]!.id;
      return { text: text(out), expected: `${at + 2} schema-violation` };
  }
}

const prompts = (lines: Line[]) => lines.filter((line) => line.type === 'user.message').map((line) => line.data.content);

describe('Copilot CLI properties', () => {
  it('a healthy session scans clean and repair leaves it byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const healthy = build(shape).text();
        expect(await scanText(healthy)).toEqual([]);
        expect((await repairText(healthy, 'synthetic', 'events.jsonl')).output).toBe(healthy);
      }),
      { numRuns: 25 },
    );
  });

  it('each break is found on its line, and both repairs leave a session that scans clean, keeps every prompt, pairs every call once and repairs to itself', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.constantFrom(...BREAKS), fc.nat(), fc.constantFrom<RepairMode>('discard', 'synthetic'), async (shape, kind, pick, mode) => {
        const healthy = build(shape);
        const broken = inject(healthy.lines, kind, pick);
        fc.pre(broken !== undefined);
        expect((await scanText(broken!.text)).map((f) => `${f.line} ${f.rule}`)).toContain(broken!.expected);
        const { output, lines } = await repairText(broken!.text, mode, 'events.jsonl');
        expect(await scanText(output)).toEqual([]);
        expect((await repairText(output, mode, 'events.jsonl')).output).toBe(output);
        expect(prompts(lines)).toEqual(prompts(healthy.lines));
        // Every agent's calls, the main one's and each sub-agent's, are answered once within that agent's stream.
        for (const agent of new Set(lines.map((line) => line.agentId))) {
          const own = lines.filter((line) => line.agentId === agent);
          const calls = own.flatMap((line) => (line.type === 'assistant.message' ? line.data.toolRequests.map((request: Line) => request.toolCallId) : []));
          const answers = own.flatMap((line) => (line.type === 'tool.execution_complete' ? [line.data.toolCallId] : []));
          expect([...answers].sort(), String(agent)).toEqual([...calls].sort());
        }
      }),
      { numRuns: 60 },
    );
  });
});
