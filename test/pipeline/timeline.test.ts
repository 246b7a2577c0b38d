import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { runRules } from '../../src/pipeline/run-rules.js';
import { scanFile, scanSource } from '../../src/pipeline/scan.js';
import { MAX_PINNED_LINES, NEIGHBOURS, type TimelineFold, type TimelineItem, type TimelineTurn } from '../../src/pipeline/timeline.js';
import { gatherTimeline, MAX_TURN_BYTES } from '../../src/pipeline/timeline-text.js';
import { rules } from '../../src/rules/index.js';
import { call, Session, text } from '../helpers/session.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

function write(jsonl: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'timeline-')), 'session.jsonl');
  writeFileSync(path, jsonl);
  return path;
}

function turns(items: readonly TimelineItem[]): TimelineTurn[] {
  return items.flatMap((item) => (item.type === 'turn' ? [item] : item.type === 'fold' ? turns(item.items) : []));
}

describe('timeline of a scanned file', () => {
  it('is gathered only when asked for', async () => {
    const path = join(FIXTURES, 'pi', 'missing-tool-result.jsonl');
    expect((await scanFile(path)).timeline).toBeUndefined();
    expect((await scanFile(path, undefined, undefined, false, { timeline: true })).timeline).toBeDefined();
    // A file without findings has nothing to draw around.
    expect((await scanFile(join(FIXTURES, 'pi', 'healthy.jsonl'), undefined, undefined, false, { timeline: true })).timeline).toBeUndefined();
  });

  it('lays entries not linked to the replayed path out as a disconnected fold, where the file has them', async () => {
    const report = await scanFile(join(FIXTURES, 'pi', 'unknown-parent.jsonl'), undefined, undefined, false, { timeline: true });
    const [first, ...rest] = report.timeline!.items;
    expect(first).toMatchObject({ type: 'fold', kind: 'detached', entries: 6, fromLine: 2, toLine: 7 });
    expect(rest.map((item) => (item as TimelineTurn).line)).toEqual([8, 9, 10, 11]);
    expect(report.timeline!.counts).toEqual({ replayed: 4, compacted: 0, abandoned: 6 });
  });

  it('nests a branch that forks inside compacted history in that history', async () => {
    const s = new Session();
    const fork = s.user('first').last;
    s.calls(call('call_left'));
    s.assistant([text('done')], 'stop', { parent: fork });
    const kept = s.user('second').last;
    s.reply('ok');
    s.entry({ type: 'compaction', summary: 'summary', firstKeptEntryId: kept, tokensBefore: 10 });
    s.calls(call('call_late'));
    s.user('hello?');
    const report = await scanFile(write(s.jsonl()), undefined, undefined, false, { timeline: true });
    const compacted = report.timeline!.items[0] as TimelineFold;
    expect(compacted).toMatchObject({ type: 'fold', kind: 'compacted', entries: 3 });
    expect(compacted.items.map((item) => (item.type === 'fold' ? `${item.kind}@${item.forkLine}` : (item as TimelineTurn).line))).toEqual([2, 'abandoned@2', 4]);
  });

  it('draws a neighbourhood around at most MAX_PINNED_LINES finding lines and counts the rest', async () => {
    const s = new Session();
    for (let i = 0; i < 150; i++) s.calls(call(`call_${i}`)).user(`next ${i}`);
    const report = await scanFile(write(s.jsonl()), undefined, undefined, false, { timeline: true });
    expect(report.findings).toHaveLength(150);
    const shown = turns(report.timeline!.items);
    const pinnedLines = report.findings.slice(0, MAX_PINNED_LINES).map((finding) => finding.line);
    for (const line of pinnedLines) expect(shown.some((turn) => turn.line === line)).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(MAX_PINNED_LINES * (2 * NEIGHBOURS + 1));
    expect(shown.some((turn) => turn.line === report.findings.at(-1)!.line)).toBe(false);
  });

  it('draws bookkeeping between the neighbours of a finding without counting it as one of them', async () => {
    const s = new Session();
    for (let i = 0; i < 40; i++) s.user(`filler ${i}`).reply('ok');
    s.user('one').reply('two').user('three');
    for (let i = 0; i < 4; i++) s.entry({ type: 'model_change', provider: 'anthropic', modelId: `model-${i}` });
    s.calls(call('call_lost'));
    s.user('?');
    const report = await scanFile(write(s.jsonl()), undefined, undefined, false, { timeline: true });
    const shown = turns(report.timeline!.items).map((turn) => `${turn.role}:${turn.text ?? ''}`);
    expect(shown).toEqual(['user:one', 'assistant:two', 'user:three', 'state:', 'state:', 'state:', 'state:', 'assistant:Let me look.', 'user:?']);
  });

  it('reads back at most MAX_TURN_BYTES of a turn, describing a longer line instead', async () => {
    const s = new Session();
    s.user('read the big file');
    s.calls(call('call_big'));
    s.result('call_big', 'read', { message: { content: [text('x'.repeat(MAX_TURN_BYTES + 10))] } });
    s.calls(call('call_lost'));
    s.user('?');
    const report = await scanFile(write(s.jsonl()), undefined, undefined, false, { timeline: true });
    const big = turns(report.timeline!.items).find((turn) => turn.line === 4)!;
    expect(big.text).toBeUndefined();
    expect(big.note).toMatch(/^line of [\d,]+ bytes: longer than the 256 KiB read back/);
    expect(turns(report.timeline!.items).find((turn) => turn.line === 2)!.text).toBe('read the big file');
  });

  it('cuts long text and says how long it was', async () => {
    const s = new Session();
    s.user(`start ${'word '.repeat(1000)}end`);
    s.calls(call('call_lost'));
    s.user('?');
    const report = await scanFile(write(s.jsonl()), undefined, undefined, false, { timeline: true });
    const long = turns(report.timeline!.items).find((turn) => turn.line === 2)!;
    expect(long.text).toHaveLength(1200);
    expect(long.textChars).toBe(5009);
  });

  it('shows no words for standard input, which is read once, and says so', async () => {
    const s = new Session().user('hi').calls(call('call_lost')).user('?');
    const report = await scanSource('-', Readable.from([Buffer.from(s.jsonl())]), undefined, undefined, { timeline: true });
    expect(report.timeline!.textNote).toBe('standard input is read once, so turns show no text');
    expect(turns(report.timeline!.items).every((turn) => turn.text === undefined)).toBe(true);
    expect(turns(report.timeline!.items).map((turn) => turn.line)).toEqual([2, 3, 4]);
  });

  it('notes a turn whose line changed after the scan instead of showing other bytes', async () => {
    const s = new Session().user('hi').calls(call('call_lost')).user('?');
    const path = write(s.jsonl());
    const transcript = await loadTranscriptFile(path);
    const analysis = analyze(transcript);
    const findings = runRules(analysis, rules);
    writeFileSync(path, 'x'.repeat(s.jsonl().length));
    const timeline = await gatherTimeline(analysis, findings, path);
    expect(turns(timeline.items).map((turn) => turn.note)).toEqual(Array(3).fill('the line no longer parses: the file changed after it was scanned'));
  });
});
