import { describe, expect, it } from 'vitest';
import { answer, calling, context, jsonl, metadata, resetClock, rewind, touched, user, type Line } from '../../formats/gemini-cli/session.js';
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
});
