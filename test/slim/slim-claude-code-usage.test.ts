import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { measureRequest } from '../../src/model/size/measure.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { longText, slimText } from './slim-session.js';

type Json = Record<string, any>;

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A Claude Code session whose turns each read a long file, every response recording the usage
 * its request had (the history so far at about 2.7 bytes a token, over a 20k system prompt): the
 * last ones count more than the 200k window, as a session that ran over does.
 */
function overWindow(turns: number, recorded = (history: number): Json | undefined => ({ input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 20_000 + Math.round(history / 2.7), output_tokens: 40 })): string {
  const lines: Json[] = [];
  let parent: string | null = null;
  let n = 0;
  let history = 0;
  const push = (line: Json): string => {
    const id = uuid(++n);
    lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/workspace/demo', sessionId: 'usage-test', version: '2.1.328', ...line, uuid: id, timestamp: new Date(Date.UTC(2026, 11, 2, 9, 0, n)).toISOString() });
    parent = id;
    history += JSON.stringify(line.message).length;
    return id;
  };
  const usage = () => recorded(history);
  for (let t = 0; t < turns; t++) {
    push({ type: 'user', message: { role: 'user', content: `request ${t}: look at part ${t}` } });
    push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${t}a`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${t}`, name: 'Read', input: { file_path: `/workspace/demo/part-${t}.ts` } }], stop_reason: 'tool_use', usage: usage() } });
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: longText(1000, `t${t}`) }] } });
    push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${t}b`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `answer ${t}` }], stop_reason: 'end_turn', usage: usage() } });
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

async function measured(text: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'td-cc-usage-')), 'session.jsonl');
  writeFileSync(file, text);
  return measureRequest(analyze(await loadTranscriptFile(file)));
}

const TARGET = 60_000;
const compactions = (lines: Json[]) => lines.filter((line) => line.subtype === 'compact_boundary');

describe('slim on a Claude Code session whose recorded usage counted the history it compacts', () => {
  it('lists the kept messages on the boundary, so neither Claude Code nor measure anchors on their old usage', async () => {
    const original = overWindow(16);
    expect((await measured(original)).tokens.tokens).toBeGreaterThan(200_000);
    const first = await slimText(original, { target: { tokens: TARGET } });
    expect(first.report.slim?.fits).toBe(true);
    // Claude Code reads the last boundary (a pass that measured its output over again may have compacted again).
    const boundary = [...first.lines].reverse().find((line) => line.subtype === 'compact_boundary')!;
    const summary = [...first.lines].reverse().find((line) => line.isCompactSummary === true)!;
    const { preservedMessages, preservedSegment } = boundary.compactMetadata;
    // Claude Code's own partial compaction's fields: the kept messages in order, after the summary, the last of them the leaf.
    expect(preservedMessages.anchorUuid).toBe(summary.uuid);
    expect(preservedSegment).toEqual({ headUuid: preservedMessages.uuids[0], anchorUuid: summary.uuid, tailUuid: preservedMessages.uuids.at(-1) });
    expect(preservedMessages.uuids.at(-1)).toBe(first.lines.at(-1)!.uuid);
    const kept = first.lines.slice(first.lines.indexOf(summary) + 1).map((line) => line.uuid);
    expect(preservedMessages.uuids).toEqual(kept);
    // The kept responses' usage is as recorded, and still over the window: it is no anchor.
    const stale = first.lines.filter((line) => kept.includes(line.uuid) && line.message.usage !== undefined);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.at(-1)!.message.usage.cache_read_input_tokens).toBeGreaterThan(200_000);
    const size = await measured(first.output);
    expect(size.tokens.anchor).toBeUndefined();
    expect(size.tokens.high).toBeLessThanOrEqual(TARGET);
    const second = await slimText(first.output, { target: { tokens: TARGET } });
    expect(second.report.slim?.fits).toBe(true);
    expect(second.output).toBe(first.output);
  });

  it('anchors on a usage recorded after the kept messages again', async () => {
    const first = await slimText(overWindow(16), { target: { tokens: TARGET } });
    const last = first.lines.at(-1)!;
    const later = { ...last, parentUuid: last.uuid, uuid: uuid(9999), message: { ...last.message, id: 'msg_new', usage: { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 31_000, output_tokens: 40 } } };
    const size = await measured(`${first.output}${JSON.stringify({ ...later, type: 'user', message: { role: 'user', content: 'and now?' }, uuid: uuid(9998) })}\n${JSON.stringify({ ...later, parentUuid: uuid(9998) })}\n`);
    expect(size.tokens.anchor?.tokens).toBe(31_005);
  });

  it('prices the history a compaction keeps as the next pass counts it: a usage far under the bytes does not make it look free', async () => {
    // The usage recorded halfway counted 500 tokens for ~90 kB of history (none after): the history
    // slim keeps is counted afresh once it compacts, so it must fit at the estimator's rate, in one compaction.
    let n = 0;
    const original = overWindow(16, () => (++n <= 16 ? { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 500, output_tokens: 40 } : undefined));
    const before = await measured(original);
    expect(before.tokens.anchor?.tokens).toBe(505);
    expect(before.tokens.high).toBeGreaterThan(TARGET);
    const first = await slimText(original, { target: { tokens: TARGET } });
    expect(first.report.slim?.fits).toBe(true);
    expect(compactions(first.lines)).toHaveLength(1);
    expect((await measured(first.output)).tokens.high).toBeLessThanOrEqual(TARGET);
    expect((await slimText(first.output, { target: { tokens: TARGET } })).output).toBe(first.output);
  });
});
