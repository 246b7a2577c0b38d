import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { answer, calling, context, info, jsonl, metadata, resetClock, responses, rewind, rewritten, touched, user, type Line, type ToolCall } from './session.js';

const TOOLS = ['list_directory', 'read_file', 'run_shell_command', 'glob'];

/** Per turn: an info message or not, and rounds of parallel calls (their tools). */
const shapes = fc.array(fc.record({ info: fc.boolean(), rounds: fc.array(fc.array(fc.constantFrom(...TOOLS), { minLength: 1, maxLength: 3 }), { maxLength: 3 }) }), { minLength: 1, maxLength: 4 });
type Shape = Array<{ info: boolean; rounds: string[][] }>;

/** A healthy session written the way Gemini CLI writes one: each model message of calls first while they run, then again with their results. */
function build(shape: Shape): Line[] {
  resetClock();
  const lines: Line[] = [metadata(), rewritten([context()])];
  let n = 0;
  shape.forEach(({ info: notice, rounds }, turn) => {
    lines.push(user(`u${turn}`, `task ${turn}`), touched());
    if (notice) lines.push(info(`i${turn}`, 'Request cancelled.'));
    rounds.forEach((tools, round) => {
      const calls: ToolCall[] = tools.map((name) => ({ id: `${name}__${name}_${n++}`, name }));
      const id = `m${turn}.${round}`;
      lines.push(calling(id, calls), touched(), calling(id, calls.map((call) => ({ ...call, output: `out ${call.id}` }))), touched());
    });
    lines.push(answer(`a${turn}`, `done ${turn}`), touched());
  });
  return lines;
}

const BREAKS = ['executing', 'duplicate', 'rewind-unknown', 'misnamed', 'blank'] as const;
type Break = (typeof BREAKS)[number];

/** Breaks a healthy session at the pick-th model message of calls; the line expected to hold the finding, or undefined when there is none to break. */
function inject(lines: Line[], kind: Break, pick: number): { lines: Line[]; expected: string } | undefined {
  const out = lines.map((value) => structuredClone(value));
  const answered = out.flatMap((value, i) => (value.toolCalls?.some((call: Line) => call.result !== undefined) ? [i] : []));
  if (answered.length === 0) return undefined;
  const at = answered[pick % answered.length]!;
  const message = out[at]!;
  switch (kind) {
    case 'executing': {
      // The kill came before the result of the last call was recorded.
      const last = message.toolCalls.at(-1);
      delete last.result;
      last.status = 'executing';
      return { lines: out, expected: `${at + 1} kept-history-pairing` };
    }
    case 'duplicate':
      out.splice(at + 1, 0, responses(`dup${at}`, message.toolCalls.map((call: Line) => ({ id: call.id, name: call.name, output: 'again' }))));
      return { lines: out, expected: `${at + 2} kept-history-pairing` };
    case 'rewind-unknown':
      out.splice(at + 1, 0, rewind('no-such-message'));
      return { lines: out, expected: `${at + 2} rewind-to-unknown-message` };
    case 'misnamed':
      // A hand edit: the recorded response of the first call names another tool.
      message.toolCalls[0].result[0].functionResponse.name = 'other_tool';
      return { lines: out, expected: `${at + 1} tool-result-name-mismatch` };
    case 'blank':
      message.content = '  ';
      return { lines: out, expected: `${at + 1} empty-text-block` };
  }
}

const prompts = (lines: Line[]) => lines.filter((value) => value.type === 'user' && typeof value.content?.[0]?.text === 'string').map((value) => value.id);

describe('Gemini CLI properties', () => {
  it('a healthy session scans clean and repair leaves it byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const text = jsonl(build(shape));
        expect(await scanText(text)).toEqual([]);
        expect((await repairText(text)).output).toBe(text);
      }),
      { numRuns: 25 },
    );
  });

  it('each break is found where it is, and both repairs leave a session that scans clean, keeps every prompt and every untouched line, and repairs to itself', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.constantFrom(...BREAKS), fc.nat(), fc.constantFrom<RepairMode>('discard', 'synthetic'), async (shape, kind, pick, mode) => {
        const broken = inject(build(shape), kind, pick);
        fc.pre(broken !== undefined);
        const text = jsonl(broken!.lines);
        const found = (await scanText(text)).map((f) => `${f.line} ${f.rule}`);
        expect(found).toContain(broken!.expected);
        const { output, lines } = await repairText(text, mode);
        expect(await scanText(output)).toEqual([]);
        expect((await repairText(output, mode)).output).toBe(output);
        expect(prompts(lines)).toEqual(prompts(broken!.lines));
        const before = text.split('\n');
        const changed = output.split('\n').filter((line) => !before.includes(line));
        expect(changed.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 60 },
    );
  });
});
