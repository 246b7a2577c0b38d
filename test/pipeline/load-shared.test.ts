import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formats } from '../../src/formats/registry.js';
import { analyze } from '../../src/model/analysis.js';
import { entrySize } from '../../src/model/size/facts.js';
import { measureRequest } from '../../src/model/size/measure.js';
import type { Transcript } from '../../src/model/transcript.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { loadRange, loadRanges, takePart, type RangePart } from '../../src/pipeline/load-range.js';
import { joinRanges } from '../../src/pipeline/load-shared.js';
import { RangeSteal } from '../../src/pipeline/range-steal.js';
import { rules } from '../../src/rules/index.js';
import { runRules } from '../../src/pipeline/run-rules.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'td-shared-'));

/** Everything a scan reads off a transcript: its lines, entries and findings. */
const seen = (transcript: Transcript) => ({
  lines: transcript.lines,
  bytes: transcript.bytes,
  lastLine: transcript.lastLine,
  issues: transcript.lineIssues,
  entries: transcript.entries.toArray().map((entry) => [entry.line, entry.id, entry.parentId, entry.offset, entry.byteLength, entry.kind, entry.toolCalls?.length, entry.toolResults?.length]),
  findings: runRules(analyze(transcript), rules).map((finding) => `${finding.line} ${finding.rule} ${finding.message}`),
  sizes: Array.from({ length: transcript.entries.length }, (_, i) => entrySize(transcript.entries, i)),
  request: measureRequest(analyze(transcript)),
});

/** Entries whose bytes are of more than one kind (rows of their own in the store's columns). */
const multiKind = (sizes: ReturnType<typeof seen>['sizes']) => sizes.filter((size) => Object.keys(size.parts).length > 1).length;

/** A fixture written out `copies` times, and the offset each of its lines starts at. */
function file(fixture: string, copies: number) {
  const lines = readFileSync(join(ROOT, 'fixtures', fixture), 'utf8').split('\n').slice(0, -1);
  const all = Array.from({ length: copies }, () => lines).flat();
  const path = join(dir, fixture.replaceAll('/', '-'));
  writeFileSync(path, all.map((line) => `${line}\n`).join(''));
  const starts: number[] = [];
  let at = 0;
  for (const line of all) {
    starts.push(at);
    at += Buffer.byteLength(line) + 1;
  }
  return { path, lines: all, starts, size: at };
}

/**
 * The file read the way two threads read it, with the other thread's steals scripted: this
 * thread's part up to `cuts[0]`, the other's from the last cut, taking the ranges between cuts
 * one by one from the end.
 */
async function readShared(path: string, formatName: string, size: number, lines: number, cuts: number[]) {
  const format = formats.find((candidate) => candidate.name === formatName)!;
  const first = await loadRange({ path, start: 0, end: cuts[0]!, format: formatName, state: undefined, lines, size });
  const steals = cuts.slice(0, -1).reverse();
  const parts: RangePart[] = [];
  const request = { path, start: cuts.at(-1)!, format: formatName, state: first.reached!.state, lines, size };
  await loadRanges(request, { ask: async () => steals.shift() }, (part) => takePart(parts, part));
  const ordered = parts.sort((a, b) => a.start - b.start);
  return { transcript: joinRanges(first.transcript, ordered.map((part) => part.result), format, undefined), ranges: ordered.map((part) => [part.start, part.end]) };
}

describe('a file read in ranges by two threads', () => {
  // With `hasMultiKind`, some entries send more than one kind, so their size facts take rows of their own (Gemini CLI's written at the end, see addLateFacts).
  for (const [fixture, formatName, hasMultiKind] of [
    ['pi/healthy.jsonl', 'pi', true],
    ['copilot-cli/missing-tool-result.jsonl', 'copilot-cli', false],
    ['gemini-cli/missing-tool-result.jsonl', 'gemini-cli', true],
  ] as const) {
    it(`${fixture}: the ranges joined give what one thread reads`, async () => {
      const { path, starts, size, lines } = file(fixture, 6);
      const at = (share: number) => starts[Math.floor(starts.length * share)]!;
      const cuts = [at(0.3), at(0.45), at(0.6), at(0.8)];
      const single = seen(await loadTranscriptFile(path, undefined, false));
      const shared = await readShared(path, formatName, size, lines.length, cuts);
      expect(shared.ranges).toEqual([
        [cuts[0], cuts[1]],
        [cuts[1], cuts[2]],
        [cuts[2], cuts[3]],
        [cuts[3], size],
      ]);
      expect(seen(shared.transcript)).toEqual(single);
      expect(single.findings.length).toBeGreaterThan(0);
      if (hasMultiKind) expect(multiKind(single.sizes)).toBeGreaterThan(0);
    });
  }

  it('reads the ranges after a steal again when it ends in another state than they guessed (a cut inside a turn)', async () => {
    const { path, starts, size, lines } = file('copilot-cli/missing-tool-result.jsonl', 6);
    // The line after an assistant message with calls: a Copilot CLI decoder there holds the open calls.
    const calling = lines.findIndex((line, i) => i > lines.length / 2 && /"toolRequests":\[\{/.test(line));
    const cuts = [starts[Math.floor(lines.length * 0.3)]!, starts[calling + 1]!, starts[Math.floor(lines.length * 0.85)]!];
    const single = seen(await loadTranscriptFile(path, undefined, false));
    const shared = await readShared(path, 'copilot-cli', size, lines.length, cuts);
    // The range from the cut inside the turn was read again, to the end, as one.
    expect(shared.ranges).toEqual([
      [cuts[0], cuts[1]],
      [cuts[1], size],
    ]);
    expect(seen(shared.transcript)).toEqual(single);
  });
});

describe('RangeSteal', () => {
  it('answers a request with where the main thread now stops', async () => {
    const board = new RangeSteal();
    const other = new RangeSteal(board.buffer);
    expect(board.asked).toBe(false);
    const asking = other.ask();
    expect(board.asked).toBe(true);
    board.answer(4096);
    expect(await asking).toBe(4096);
    expect(board.asked).toBe(false);
  });

  it('declines a request when the main thread keeps its range, and every one after', async () => {
    const board = new RangeSteal();
    const other = new RangeSteal(board.buffer);
    const asking = other.ask();
    board.answer(undefined);
    expect(await asking).toBeUndefined();
    expect(await other.ask()).toBeUndefined();
  });

  it('declines a request still open when the main thread closes, and any later one at once', async () => {
    const board = new RangeSteal();
    const other = new RangeSteal(board.buffer);
    const asking = other.ask();
    board.close();
    expect(await asking).toBeUndefined();
    expect(await other.ask()).toBeUndefined();
    board.close(); // closing twice changes nothing
    expect(board.asked).toBe(false);
  });
});
