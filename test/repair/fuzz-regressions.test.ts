import { describe, expect, it } from 'vitest';
import { repairBytes, repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';
import { call, Session, text } from '../helpers/session.js';

/** One run leaves nothing a second run would change, and no error but those left for a person. */
async function settlesInOneRun(jsonl: string, mode: 'discard' | 'synthetic', leftForAPerson: string[] = []): Promise<string> {
  const first = await repairBytes(jsonl, mode);
  expect(first.report.findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual(leftForAPerson);
  expect((await repairBytes(first.output, mode)).report.repair.changed).toBe(false);
  return first.output.toString('utf8');
}

/** Cases the mutation fuzz (harden/fuzz.mjs) found, each as a small session of the same shape. */
describe('repair regressions found by mutation fuzz', () => {
  it.each(['discard', 'synthetic'] as const)('%s: a compaction that keeps history from a tool result keeps it from the call instead', async (mode) => {
    const session = new Session().user('old').calls(call('toolu_1')).result('toolu_1', 'read', { id: 'r0000001' }).reply('ok');
    session.entry({ type: 'compaction', summary: 'earlier work', firstKeptEntryId: 'r0000001', tokensBefore: 10 }).user('next').reply('done');
    expect((await scanText(session.jsonl())).map((f) => f.rule)).toEqual(['orphan-tool-result']);
    const output = await settlesInOneRun(session.jsonl(), mode);
    const assistant = JSON.parse(session.lines[2]!).id;
    expect(output).toContain(`"firstKeptEntryId":"${assistant}"`);
  });

  it.each(['discard', 'synthetic'] as const)('%s: two entries share an id and both lost their parent: no cycle, in one run', async (mode) => {
    const session = new Session().user('a').reply('b');
    session.user('c', { id: 'dup00001', parent: 'gone0001' }).reply('d').user('c again', { id: 'dup00001', parent: 'gone0001' });
    session.message({ role: 'toolResult', toolCallId: 'x', content: [text('late')], isError: false });
    await settlesInOneRun(session.jsonl(), mode, ['duplicate-entry-id']);
  });

  it('a text block whose key was mangled is not blank: what it holds stays', async () => {
    const session = new Session().user([{ type: 'text', 'tex]': 'what the user wrote' }]).reply('ok');
    const { output } = await repairText(session.jsonl());
    expect(output).toContain('what the user wrote');
  });

  it.each(['discard', 'synthetic'] as const)('%s: a call line copied to the end of a Claude Code session is dropped, not answered under an id it does not own', async (mode) => {
    const line = (uuid: string, parent: string | null, message: object) =>
      JSON.stringify({ parentUuid: parent, isSidechain: false, type: 'role' in message && message.role === 'user' ? 'user' : 'assistant', message, uuid, timestamp: '2026-01-01T00:00:00.000Z', sessionId: 's' });
    const use = { role: 'assistant', id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Edit', input: {} }], stop_reason: 'tool_use' };
    const lines = [
      line('u1', null, { role: 'user', content: 'fix it' }),
      line('a1', 'u1', use),
      line('r1', 'a1', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }),
      line('a2', 'r1', { role: 'assistant', id: 'msg_2', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' }),
      line('a1', 'u1', use),
    ];
    const output = await settlesInOneRun(lines.map((l) => `${l}\n`).join(''), mode);
    expect(output).not.toContain('transcript-doctor added this error result');
  });

  it('synthetic: a result added after a Claude Code line without parentUuid gets a uuid of its own, in one run', async () => {
    const line = (fields: object) => JSON.stringify({ isSidechain: false, sessionId: 's', timestamp: '2026-01-01T00:00:00.000Z', ...fields });
    const lines = [
      line({ parentUuid: null, type: 'user', message: { role: 'user', content: 'run it' }, uuid: 'u1' }),
      // The parentUuid key was lost: Claude Code's readers then link this line to the one written before it.
      line({ type: 'assistant', message: { role: 'assistant', id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }], stop_reason: 'tool_use' }, uuid: 'a1' }),
      line({ parentUuid: 'a1', type: 'user', message: { role: 'user', content: 'and then?' }, uuid: 'u2' }),
    ];
    const output = await settlesInOneRun(lines.map((l) => `${l}\n`).join(''), 'synthetic');
    const added = output.split('\n').find((l) => l.includes('"tool_use_id":"toolu_1"'));
    expect(JSON.parse(added!).uuid).toEqual(expect.any(String));
  });
});

