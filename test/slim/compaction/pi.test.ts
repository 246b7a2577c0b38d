import { describe, expect, it } from 'vitest';
import { loadPiSession, piContextCheck } from '../../interop/pi-context.js';
import { call, Session, text } from '../../helpers/session.js';
import { compact } from './compact.js';

/** Turns of a prompt, a read and an edit, and an answer; usage grows as a real session's does. */
function session(turns: number): Session {
  const s = new Session();
  for (let n = 0; n < turns; n++) {
    s.user(`request ${n}: fix the parser`);
    s.calls(call(`read_${n}`, 'read', { path: `src/file-${n}.ts` }), call(`edit_${n}`, 'edit', { path: `src/changed-${n}.ts`, oldText: 'a', newText: 'b' }));
    s.result(`read_${n}`, 'read').result(`edit_${n}`, 'edit');
    s.assistant([text(`answer ${n}`)], 'stop', { message: { usage: { input: 1000 * (n + 1), output: 5, cacheRead: 150_000, cacheWrite: 0, totalTokens: 151_005 } } });
  }
  return s;
}

describe('pi compaction entry', () => {
  it("pi's own loader replays the summary, then every entry from the first kept one, paired", async () => {
    const original = session(6);
    const before = await loadPiSession(original.jsonl());
    const { text: written, plan } = await compact(original.jsonl(), 12);
    // Nothing written before changes: the entry is appended.
    expect(written.startsWith(original.jsonl())).toBe(true);
    const record = JSON.parse(written.trimEnd().split('\n').at(-1)!);
    expect(record).toMatchObject({ type: 'compaction', parentId: before.leafId, tokensBefore: 123456, summary: plan.summary });
    const loaded = await loadPiSession(written);
    expect(loaded.context.messages[0]).toMatchObject({ role: 'compactionSummary', summary: plan.summary });
    // The kept messages are the last ones of the uncompacted context, unchanged.
    const kept = loaded.context.messages.slice(1);
    expect(kept).toEqual(before.context.messages.slice(before.context.messages.length - kept.length));
    // Position 12 is a result of turn 2: the cut moves back to that turn's calls.
    expect(kept[0]).toMatchObject({ role: 'assistant', stopReason: 'toolUse' });
    expect(kept).toHaveLength(before.context.messages.length - plan.keepFrom);
    expect(plan.keepFrom).toBe(11);
    expect(kept.length).toBeLessThan(before.context.messages.length);
    const check = await piContextCheck(written);
    expect(check.unansweredCalls).toEqual([]);
    expect(check.orphanResults).toEqual([]);
  });

  it('is no earlier than the last assistant message, so pi reads its usage as from before the compaction', async () => {
    const { text: written } = await compact(session(4).jsonl(), 6);
    const lines = written.trimEnd().split('\n').map((line) => JSON.parse(line));
    const record = lines.at(-1);
    const lastAssistant = lines.filter((line) => line.message?.role === 'assistant').at(-1);
    expect(Date.parse(record.timestamp)).toBeGreaterThanOrEqual(lastAssistant.message.timestamp);
    // Recorded usage is never rewritten.
    expect(written).toContain('"cacheRead":150000');
  });

  it('summarises every earlier prompt and the files read and changed', async () => {
    const { plan, text: written } = await compact(session(5).jsonl(), 15);
    for (let n = 0; n < 3; n++) expect(plan.summary).toContain(`request ${n}: fix the parser`);
    expect(plan.summary).toContain('src/changed-0.ts');
    expect(plan.summary).toContain('src/file-1.ts');
    const record = JSON.parse(written.trimEnd().split('\n').at(-1)!);
    expect(record.details.modifiedFiles).toContain('src/changed-2.ts');
    expect(record.details.readFiles).toContain('src/file-0.ts');
    expect(record.details.readFiles).not.toContain('src/changed-0.ts');
  });

  it('never keeps from a tool result: the cut moves back to the turn it belongs to', async () => {
    // Position 3 is the first read's result (0 is the first prompt, 1 its calls, 2..3 results).
    const { plan, after } = await compact(session(3).jsonl(), 8);
    const first = after.replay.context.at(1);
    expect(first.role).not.toBe('toolResult');
    expect(plan.keepFrom).toBeLessThanOrEqual(8);
  });
});
