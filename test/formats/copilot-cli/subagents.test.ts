import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaBreaks } from '../../../src/formats/copilot-cli/schema.js';
import { copilotCliFormat } from '../../../src/formats/copilot-cli/index.js';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { Session, type Line } from './session.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'copilot-cli');
const fixture = (name: string) => readFileSync(join(DIR, name), 'utf8');
const MODES: readonly RepairMode[] = ['discard', 'synthetic'];
const SRC = 'explore-src-7f2a';
const DOCS = 'explore-docs-3c9e';

/** Repairs; checks that every line validates, nothing is left to find and a second run changes nothing. */
async function repaired(text: string, mode: RepairMode): Promise<{ output: string; lines: Line[] }> {
  const { output, lines } = await repairText(text, mode, 'events.jsonl');
  for (const line of lines) expect(schemaBreaks(line), `${mode}: ${JSON.stringify(line)}`).toBeUndefined();
  expect(await scanText(output), mode).toEqual([]);
  expect((await repairText(output, mode, 'events.jsonl')).output, mode).toBe(output);
  return { output, lines };
}

const summary = (findings: Awaited<ReturnType<typeof scanText>>) => findings.map((f) => `${f.line} ${f.rule} ${f.message}`);

describe('Copilot CLI sub-agents pair within their own agent (#2543)', () => {
  it('interleaved sub-agents, all answered: nothing found, and both repairs leave the file byte-identical', async () => {
    for (const name of ['subagents-interleaved.jsonl']) {
      const text = fixture(name);
      expect(await scanText(text)).toEqual([]);
      for (const mode of MODES) expect((await repairText(text, mode, 'events.jsonl')).output, `${mode} ${name}`).toBe(text);
    }
  });

  it('finds a call left unanswered inside a sub-agent, naming that agent, while the main conversation holds', async () => {
    const findings = await scanText(fixture('subagent-missing-tool-result.jsonl'));
    expect(summary(findings)).toEqual([`12 missing-tool-result \`bash\` call call_a_1 has no tool result (in the conversation of sub-agent ${SRC}).`]);
    // The client heals an unanswered call of the main conversation on resume, not a sub-agent's (1.0.102, tried).
    expect(findings[0]!.healedBy).toBeUndefined();
  });

  it('synthetic answers it in Copilot’s own shape, in that sub-agent’s stream (agentId, parentToolCallId), right after its call', async () => {
    const text = fixture('subagent-missing-tool-result.jsonl');
    const { output, lines } = await repaired(text, 'synthetic');
    const at = lines.findIndex((line) => line.type === 'tool.execution_complete' && line.data.toolCallId === 'call_a_1');
    expect(lines[at - 1]!.data.toolRequests[0].toolCallId).toBe('call_a_1');
    expect(lines[at]).toMatchObject({ agentId: SRC, parentId: lines[at - 1]!.id, data: { success: false, model: 'resumed', parentToolCallId: 'call_1_0_0', error: { code: 'interrupted' } } });
    // One line more; every other line byte for byte.
    expect(output.split('\n').filter((line) => !text.includes(line))).toHaveLength(1);
    expect(text.split('\n').every((line) => output.includes(line))).toBe(true);
  });

  it('discard drops the unanswered call with the sub-agent’s message that held only it, and nothing of the main conversation', async () => {
    const text = fixture('subagent-missing-tool-result.jsonl');
    const { output } = await repaired(text, 'discard');
    expect(text.split('\n').filter((line) => !output.includes(line)).map((line) => JSON.parse(line).data.messageId)).toEqual(['r-a1']);
  });

  it('a completion written in another agent’s stream answers nothing: the call is unanswered in its own agent, the completion an orphan in the other', async () => {
    const text = fixture('subagent-foreign-completion.jsonl');
    expect(summary(await scanText(text))).toEqual([
      `12 missing-tool-result \`bash\` call call_a_1 has no tool result (in the conversation of sub-agent ${SRC}).`,
      `18 orphan-tool-result Tool result for call_a_1 answers no tool call (in the conversation of sub-agent ${DOCS}).`,
    ]);
    for (const mode of MODES) {
      const { lines } = await repaired(text, mode);
      const answers = lines.filter((line) => line.type === 'tool.execution_complete' && line.data.toolCallId === 'call_a_1');
      expect(answers.map((line) => line.agentId), mode).toEqual(mode === 'synthetic' ? [SRC] : []);
    }
  });

  it('leaves the main conversation’s judgement alone: its call answered only in a sub-agent’s stream is still unanswered there', async () => {
    const session = new Session().user('delegate');
    session.turn('', [{ id: 'call_task', name: 'task' }]);
    session.event('user.message', { content: 'sub-task' }, { agentId: 'agent-1' });
    session.complete('call_task', 'done', { agentId: 'agent-1' });
    const findings = await scanText(session.user('next').turn('ok').text());
    expect(findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['4 missing-tool-result', '7 orphan-tool-result']);
    expect(findings[0]!.message).not.toContain('sub-agent');
    expect(findings[0]!.healedBy?.client).toBe('Copilot CLI');
  });

  it('knows an event that names only the task call as the agent that call runs (subagent.started names both)', async () => {
    const session = new Session().user('delegate');
    session.turn('', [{ id: 'call_task', name: 'task' }]);
    session.event('subagent.started', { toolCallId: 'call_task', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'looks' }, { agentId: 'agent-1' });
    session.event('assistant.message', { messageId: 's1', content: '', toolRequests: [{ toolCallId: 'sub_1', name: 'bash', arguments: {} }] }, { agentId: 'agent-1' });
    session.event('tool.execution_complete', { toolCallId: 'sub_1', success: true, parentToolCallId: 'call_task' });
    session.complete('call_task', 'sub-agent done');
    expect(await scanText(session.turn('done').text())).toEqual([]);
  });

  it('a decoder that continues another’s state knows the agents it learned', () => {
    const first = copilotCliFormat.createDecoder();
    first.decode({ type: 'subagent.started', data: { toolCallId: 'call_task' }, agentId: 'agent-1', id: 'x', timestamp: 't', parentId: null }, 1, 0);
    const second = copilotCliFormat.createDecoder(JSON.parse(JSON.stringify(first.state())));
    const entry = second.decode({ type: 'tool.execution_complete', data: { toolCallId: 'sub_1', success: true, parentToolCallId: 'call_task' }, id: 'y', timestamp: 't', parentId: 'x' }, 2, 1);
    expect(entry.agent).toBe('agent-1');
  });
});
