import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/model/analysis.js';
import { loadTranscriptFile } from '../../../src/pipeline/load-file.js';
import { withParsedLines } from '../../../src/slim/compaction/lines.js';
import { summarizeLocally } from '../../../src/slim/compaction/summary.js';
import { measureRequest } from '../../../src/model/size/measure.js';
import { compact, replayedLines } from './compact.js';
import { claudeCodeSession } from './sessions.js';

const lines = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

describe('Claude Code compact boundary', () => {
  it('starts the chain again at a boundary before the first kept line, with the summary hung on it', async () => {
    const original = claudeCodeSession(5);
    const { text, plan, before, after } = await compact(original, 14);
    const out = lines(text);
    const boundary = out.findIndex((line) => line.subtype === 'compact_boundary');
    expect(out[boundary]).toMatchObject({ parentUuid: null, type: 'system', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 123456 } });
    const summary = out[boundary + 1]!;
    expect(summary).toMatchObject({ parentUuid: out[boundary]!.uuid, type: 'user', isCompactSummary: true });
    expect(summary.message.content).toContain(plan.summary);
    // The first kept line hangs on the summary; the boundary names the entry before it.
    const keptLine = out.findIndex((line, i) => i > boundary + 1 && line.parentUuid === summary.uuid);
    expect(keptLine).toBeGreaterThan(boundary);
    expect(out[boundary]!.logicalParentUuid).toBe(before.replay.context.at(plan.keepFrom - 1).id);
    // Every kept entry, as written, and nothing older: the replay is the summary and the tail.
    const keptBefore = replayedLines(before).slice(plan.keepFrom).map((line) => original.split('\n')[line - 1]);
    const keptAfter = replayedLines(after).filter((line) => !text.split('\n')[line - 1]!.includes('"isCompactSummary"')).map((line) => text.split('\n')[line - 1]);
    expect(keptAfter.slice(1)).toEqual(keptBefore.slice(1));
    expect(after.replay.context.length).toBe(before.replay.context.length - plan.keepFrom + 1);
  });

  it('lists the kept messages in the order they are sent, results beside the chain too, the last of them the leaf', async () => {
    const { text, plan, before, after } = await compact(claudeCodeSession(5), 14);
    const boundary = lines(text).find((line) => line.subtype === 'compact_boundary')!;
    const summary = lines(text).find((line) => line.isCompactSummary === true)!;
    const kept = Array.from(before.replay.context.indices.slice(plan.keepFrom), (index) => before.entries.at(index).id);
    expect(boundary.compactMetadata.preservedMessages).toEqual({ anchorUuid: summary.uuid, uuids: kept, allUuids: kept });
    expect(boundary.compactMetadata.preservedSegment).toEqual({ headUuid: kept[0], anchorUuid: summary.uuid, tailUuid: after.entries.at(after.tree.leaf).id });
    // Claude Code zeroes the listed responses' usage on resume: measure anchors on none of it.
    expect(measureRequest(before).tokens.anchor).toBeDefined();
    expect(measureRequest(after).tokens.anchor).toBeUndefined();
  });

  it('moves the records resume needs out of what Claude Code skips before the boundary', async () => {
    const { text } = await compact(claudeCodeSession(4), 12);
    const out = lines(text);
    const boundary = out.findIndex((line) => line.subtype === 'compact_boundary');
    const mode = out.findIndex((line) => line.type === 'permission-mode');
    const title = out.findIndex((line) => line.type === 'custom-title');
    expect(mode).toBeGreaterThan(boundary);
    expect(title).toBeGreaterThan(boundary);
    expect(out.filter((line) => line.type === 'permission-mode')).toHaveLength(1);
    // last-prompt is already after it, and stays where it was: the last line.
    expect(out.at(-1)!.type).toBe('last-prompt');
  });

  it('resumes from the replayed leaf, not the pre-boundary one a moved last-prompt names', async () => {
    // last-prompt written mid-session (before the kept lines), naming the leaf of that time.
    const rows = lines(claudeCodeSession(4));
    const last = rows.pop()!;
    const early = rows.findIndex((row) => row.type === 'user' && row.message.content === 'request 1: fix the parser');
    rows.splice(early, 0, { ...last, leafUuid: rows[early - 1]!.uuid });
    const original = rows.map((row) => `${JSON.stringify(row)}\n`).join('');
    const { text, after } = await compact(original, 12);
    const out = lines(text);
    const boundary = out.findIndex((line) => line.subtype === 'compact_boundary');
    const prompts = out.map((line, at) => ({ line, at })).filter(({ line }) => line.type === 'last-prompt');
    const leaf = after.entries.at(after.tree.leaf).id;
    // The one Claude Code reads (the last) is after the boundary and names the leaf of the replayed path.
    expect(prompts.at(-1)!.at).toBeGreaterThan(boundary);
    expect(prompts.at(-1)!.line.leafUuid).toBe(leaf);
    expect(out.at(-1)!.uuid).toBe(leaf);
    // The recorded one stays as it was, byte for byte, before the boundary.
    expect(prompts[0]!.at).toBeLessThan(boundary);
    expect(text.split('\n')).toContain(original.split('\n')[early]);
  });

  it('never cuts a response whose parallel results hang beside the chain', async () => {
    const { after, plan } = await compact(claudeCodeSession(4), 8);
    const first = after.replay.context.at(1);
    expect(first.role === 'user' || first.role === 'assistant').toBe(true);
    expect(after.replay.pairing).toBeDefined();
    const kept = after.replay.context;
    const calls = new Set<string>();
    const results: string[] = [];
    for (let at = 0; at < kept.length; at++) {
      const entry = kept.at(at);
      for (const call of entry.toolCalls ?? []) calls.add(call.id!);
      for (const result of entry.toolResults ?? []) results.push(result.callId!);
    }
    expect(results.every((id) => calls.has(id))).toBe(true);
    expect([...calls].every((id) => results.includes(id))).toBe(true);
    expect(plan.keepFrom).toBeLessThanOrEqual(8);
  });

  it('summarises every earlier prompt and the files the calls read and changed', async () => {
    const { plan } = await compact(claudeCodeSession(5), 20);
    expect(plan.summary).toContain('1. request 0: fix the parser');
    expect(plan.summary).toContain('/workspace/demo/src/changed-1.ts');
    expect(plan.summary).toContain('/workspace/demo/src/file-2.ts');
    expect(plan.summary).not.toContain('request 4');
  });
});

describe('the summary without a model', () => {
  it('keeps every prompt of a long session, each clipped harder the more there are', async () => {
    const long = claudeCodeSession(3).replace('request 1: fix the parser', `request 1: ${'pasted log line\\n'.repeat(2000)}`);
    const { plan } = await compact(long, 12);
    expect(plan.summary).toContain('1. request 0: fix the parser');
    expect(plan.summary).toMatch(/2\. request 1: pasted log line[\s\S]*characters left out[\s\S]*pasted log line/);
    expect(plan.summary.length).toBeLessThan(12_000);
  });

  it('gives the latest answer before the cut, and reads no other reply that calls nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-summary-')), 'session.jsonl');
    writeFileSync(file, claudeCodeSession(6));
    const analysis = analyze(await loadTranscriptFile(file));
    const read: number[] = [];
    const summary = withParsedLines(file, analysis.entries, (parsed) => summarizeLocally(analysis, analysis.replay.context.length, (entry) => (read.push(entry), parsed(entry))));
    expect(summary).toMatch(/The last answer before this point:\nanswer 5$/);
    expect(summary).not.toContain('answer 4');
    const answers = read.filter((entry) => JSON.stringify(withParsedLines(file, analysis.entries, (parsed) => parsed(entry))).includes('"answer '));
    expect(answers).toHaveLength(1);
    // Every prompt and every call is still read.
    expect(summary).toContain('request 0: fix the parser');
    expect(summary).toContain('/workspace/demo/src/changed-5.ts');
  });

  it('keeps the first and the latest prompts its room holds, numbered as they were, and says how many between them are left out', async () => {
    const many = claudeCodeSession(300).replace(/request (\d+): fix the parser/g, (_, t: string) => `request ${t}: ${'word '.repeat(100)}`);
    const file = join(mkdtempSync(join(tmpdir(), 'td-summary-')), 'session.jsonl');
    writeFileSync(file, many);
    const analysis = analyze(await loadTranscriptFile(file));
    const summary = withParsedLines(file, analysis.entries, (read) => summarizeLocally(analysis, analysis.replay.context.length, read, 30_000));
    expect(summary.length).toBeLessThanOrEqual(30_000);
    const numbers = [...summary.matchAll(/^(\d+)\. request (\d+):/gm)].map((match) => [Number(match[1]), Number(match[2])]);
    expect(numbers.every(([n, t]) => n === t! + 1)).toBe(true);
    expect(numbers[0]).toEqual([1, 0]);
    expect(numbers.at(-1)).toEqual([300, 299]);
    const gap = /^\(([\d,]+) requests between these are left out for room; the backup holds them\)$/m.exec(summary);
    expect(Number(gap?.[1].replace(/,/g, ''))).toBe(300 - numbers.length);
    // Without a room, every prompt stays.
    const whole = withParsedLines(file, analysis.entries, (read) => summarizeLocally(analysis, analysis.replay.context.length, read));
    expect([...whole.matchAll(/^\d+\. request \d+:/gm)]).toHaveLength(300);
  });
});
