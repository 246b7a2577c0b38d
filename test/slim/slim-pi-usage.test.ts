import { describe, expect, it } from 'vitest';
import { call, Session, text } from '../helpers/session.js';
import { longText, slimText, thinking } from './slim-session.js';

const usage = (tokens: number) => ({ message: { usage: { input: 100, output: 50, cacheRead: tokens - 150, cacheWrite: 0, totalTokens: tokens } } });

/** pi turns that each read a long file, with the usage pi recorded after each (the last counting all of them, over pi's own threshold for a 200k window). */
function turns(session: Session, from: number, to: number, resultLines = 2000): Session {
  for (let t = from; t < to; t++) {
    session.user(`prompt ${t}`, { id: `user-${t}` });
    session.assistant([thinking(t), call(`call-${t}`, 'read', { path: `src/file-${t}.ts` })], 'toolUse', usage(40_000 * t + 30_000));
    session.result(`call-${t}`, 'read', { message: { content: [text(longText(resultLines, `t${t}`))] } });
    session.assistant([text(`answer ${t}`)], 'stop', usage(40_000 * t + 40_000));
  }
  return session;
}

const compactions = (lines: Array<Record<string, any>>) => lines.filter((line) => line.type === 'compaction');

describe("slim on a pi session whose recorded usage counted the history it trims", () => {
  it("appends pi's compaction entry that keeps every entry, stamped after the last assistant, and a second run changes nothing", async () => {
    const original = turns(new Session(), 0, 6).jsonl();
    const first = await slimText(original, { target: { tokens: 150_000 } });
    expect(first.report.slim?.fits).toBe(true);
    expect(first.report.slim?.strategies.map((result) => result.strategy)).not.toContain('compaction');
    const before = original.trimEnd().split('\n');
    // Every line is there (trimmed results edited in place), and one more at the end.
    expect(first.lines).toHaveLength(before.length + 1);
    const recount = first.lines.at(-1)!;
    expect(compactions(first.lines)).toEqual([recount]);
    expect(recount.parentId).toBe(JSON.parse(before.at(-1)!).id);
    // pi keeps from the first entry: its context is every message, the summary first.
    expect(recount.firstKeptEntryId).toBe('user-0');
    expect(recount.summary).toMatch(/^transcript-doctor slim made this session smaller to fit the model's context window; no message was taken out: older tool results cut to head and tail/);
    expect(recount.tokensBefore).toBeGreaterThan(200_000);
    expect(recount.details).toEqual({ readFiles: [], modifiedFiles: [] });
    const lastAssistant = first.lines.filter((line) => line.message?.role === 'assistant').at(-1)!;
    expect(Date.parse(recount.timestamp)).toBeGreaterThanOrEqual(lastAssistant.message.timestamp);
    expect(Date.parse(recount.timestamp)).toBeGreaterThanOrEqual(Date.parse(lastAssistant.timestamp));
    // No recorded usage is rewritten.
    const usages = (lines: Array<Record<string, any>>) => lines.filter((line) => line.message?.usage !== undefined).map((line) => line.message.usage);
    expect(usages(first.lines)).toEqual(usages(before.map((row) => JSON.parse(row))));
    const second = await slimText(first.output, { target: { tokens: 150_000 } });
    expect(second.output).toBe(first.output);
  });

  it('copies a session that fits byte for byte, recorded usage and all', async () => {
    const original = turns(new Session(), 0, 3, 20).jsonl();
    const { output } = await slimText(original, { target: { tokens: 150_000 } });
    expect(output).toBe(original);
  });

  it("carries an earlier compaction on: its summary first, the entry it kept from, its file lists", async () => {
    const session = turns(new Session(), 0, 4);
    const details = { readFiles: ['src/file-0.ts'], modifiedFiles: ['src/main.ts'] };
    session.entry({ type: 'compaction', summary: 'What pi summarised of turns 0 and 1.', firstKeptEntryId: 'user-2', tokensBefore: 170_000, details });
    turns(session, 4, 7);
    const first = await slimText(session.jsonl(), { target: { tokens: 150_000 } });
    expect(first.report.slim?.fits).toBe(true);
    const [earlier, recount] = compactions(first.lines);
    expect(compactions(first.lines)).toHaveLength(2);
    expect(first.lines.at(-1)).toEqual(recount);
    expect(recount!.firstKeptEntryId).toBe(earlier!.firstKeptEntryId);
    expect(recount!.summary).toMatch(/^What pi summarised of turns 0 and 1\.\n\ntranscript-doctor slim made this session smaller/);
    expect(recount!.details).toEqual(details);
    const second = await slimText(first.output, { target: { tokens: 150_000 } });
    expect(second.output).toBe(first.output);
  });

  it('writes no second compaction entry when slim compacts (that one tells pi already)', async () => {
    const first = await slimText(turns(new Session(), 0, 8, 20).jsonl(), { target: { tokens: 3_000 }, keepTurns: 1 });
    expect(first.report.slim?.strategies.map((result) => result.strategy)).toContain('compaction');
    expect(compactions(first.lines)).toHaveLength(1);
    expect(compactions(first.lines)[0]!.summary).toMatch(/prompt 0/);
  });
});
