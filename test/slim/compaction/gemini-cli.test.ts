import { describe, expect, it } from 'vitest';
import { answer, calling, context, info, jsonl, metadata, resetClock, rewind, rewritten, touched, user, type Line } from '../../formats/gemini-cli/session.js';
import { geminiHistoryCheck } from '../../interop/gemini-history.js';
import { compact } from './compact.js';

/** Turns as Gemini CLI logs them: the prompt, the call turn written before and after its result, the answer. */
function session(turns: number, extra: Line[] = []): string {
  resetClock();
  const lines: Line[] = [metadata(), context()];
  for (let t = 0; t < turns; t++) {
    lines.push(user(`u${t}`, `request ${t}: list the folder`));
    lines.push(calling(`g${t}`, [{ id: `c${t}`, name: 'list_directory' }]));
    lines.push(calling(`g${t}`, [{ id: `c${t}`, name: 'list_directory', output: `files ${t}` }]));
    lines.push(answer(`a${t}`, `answer ${t}`), touched());
  }
  return jsonl([...lines, ...extra]);
}

const rows = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Line);

describe('Gemini CLI summary turn', () => {
  it("gives way to one summary turn that Gemini CLI's own loader sends first, then every kept turn, paired", async () => {
    const original = session(5);
    const before = await geminiHistoryCheck(original);
    // Positions are the messages the client replays: the context, then 3 per turn; 7 is turn 2's prompt.
    const { text, plan } = await compact(original, 7);
    expect(plan.keepFrom).toBe(7);
    const after = await geminiHistoryCheck(text);
    expect(after.unequal).toEqual([]);
    expect(after.refused).toEqual([]);
    expect(after.patched).toEqual([]);
    // Summary and acknowledgement, then turns 2 to 4: a prompt, a call, its response and an answer each.
    expect(after.turns).toBe(2 + 3 * 4);
    expect(after.turns).toBeLessThan(before.turns);
    const out = rows(text);
    expect(out[0]).toMatchObject({ kind: 'main' });
    expect(out.filter((row) => row.id === 'u0' || row.id === 'g1' || row.id === 'c0ffee00c0ffee00c0ffee00c0ffee00')).toEqual([]);
    const summary = out.findIndex((row) => row.type === 'user' && JSON.stringify(row.content).includes('transcript-doctor'));
    expect(out[summary + 1]).toMatchObject({ type: 'gemini', content: 'Got it. Thanks for the additional context!' });
    expect(out[summary + 2]).toMatchObject({ id: 'u2' });
    // Every kept line, and the metadata patches, as they were.
    const kept = original.trimEnd().split('\n').filter((line) => !/"id":"(u0|u1|g0|g1|a0|a1|c0ffee00c0ffee00c0ffee00c0ffee00)"/.test(line));
    expect(text.trimEnd().split('\n').filter((line) => !line.includes('"content":[{"text":"This session') && !line.includes('Got it.'))).toEqual(kept);
  });

  it('summarises the prompts and the calls of the turns that go', async () => {
    const { plan } = await compact(session(4), 7);
    expect(plan.summary).toContain('1. request 0: list the folder');
    expect(plan.summary).toContain('2. request 1: list the folder');
    expect(plan.summary).not.toContain('session_context');
    expect(plan.summary).not.toContain('request 2');
  });

  it('refuses a cut a later rewind would undo: it names a message that goes', async () => {
    await expect(compact(session(4, [rewind('a0')]), 7)).rejects.toThrow('no cut');
  });

  it('cuts a resumed log after its last $set.messages, which stays as a line with its list emptied, and summarises what the list held', async () => {
    resetClock();
    const turn = (t: number): Line[] => [user(`u${t}`, `request ${t}: list the folder`), calling(`g${t}`, [{ id: `c${t}`, name: 'list_directory', output: `files ${t}` }]), answer(`a${t}`, `answer ${t}`)];
    const lines: Line[] = [metadata(), rewritten([context()]), ...turn(0), touched(), ...turn(1), touched()];
    // A resume writes the metadata again and the whole history back as one list.
    lines.push(metadata(), rewritten([context(), ...turn(0), ...turn(1)]), info('i1', 'Resumed the session.'));
    for (let t = 2; t < 5; t++) lines.push(...turn(t), touched());
    const original = jsonl(lines);
    const { text, plan } = await compact(original, 1000);
    expect(plan.summary).toContain('1. request 0: list the folder');
    expect(plan.summary).toContain('4. request 3: list the folder');
    expect(plan.summary).not.toContain('request 4');
    const out = rows(text);
    const lists = out.filter((row) => Array.isArray((row.$set as { messages?: unknown[] } | undefined)?.messages));
    expect(lists.map((row) => (row.$set as { messages: unknown[] }).messages)).toEqual([[], []]);
    const after = await geminiHistoryCheck(text);
    expect(after.unequal).toEqual([]);
    expect(after.refused).toEqual([]);
    expect(after.patched).toEqual([]);
    // The summary, its acknowledgement, then the latest turn: its prompt, its call, the response and the answer.
    expect(after.turns).toBe(2 + 4);
    const summary = out.find((row) => row.type === 'user' && JSON.stringify(row.content).includes('transcript-doctor'))!;
    // Stamped with the latest message's time: the usage recorded before it no longer anchors the estimate.
    const stamps = rows(original).flatMap((row) => (typeof row.timestamp === 'string' ? [row.timestamp] : [])).sort();
    expect(summary.timestamp).toBe(stamps.at(-1));
  });

  it('refuses a cut before a list that sets the whole history again: the list would bring it back', async () => {
    resetClock();
    const lines: Line[] = [metadata(), rewritten([context()]), user('u0', 'request 0'), answer('a0', 'answer 0'), user('u1', 'request 1'), answer('a1', 'answer 1')];
    lines.push(rewritten([context(), user('u0', 'request 0'), answer('a0', 'answer 0'), user('u1', 'request 1'), answer('a1', 'answer 1')]));
    // Positions: the list's five messages; every prompt sits in the list, so there is no cut after it.
    await expect(compact(jsonl(lines), 4)).rejects.toThrow('no cut');
  });
});
