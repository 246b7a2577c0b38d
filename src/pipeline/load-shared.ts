import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TranscriptFormat } from '../formats/format.js';
import { readFileLines, type FileRange } from '../io/file-lines.js';
import type { RawLine } from '../io/line-reader.js';
import { EntryStore } from '../model/entry-store.js';
import { appendStore } from '../model/store-copy.js';
import { translation } from '../model/store-translation.js';
import type { Transcript } from '../model/transcript.js';
import type { LineWork } from './line-work.js';
import { loadRange, startsAt, takePart, type RangePart, type RangeRequest, type RangeResult } from './load-range.js';
import { addLateFacts, decoderEnds, TranscriptBuilder, type BuilderStart } from './load-transcript.js';
import { RangeSteal } from './range-steal.js';

const MiB = 1 << 20;
/** The worker is the compiled module beside this one; under a TypeScript test runner there is none. */
const WORKER = new URL('./load-worker.js', import.meta.url);
export const workerAvailable = existsSync(fileURLToPath(WORKER));

/**
 * Where this thread's part first ends, as a share of the file: a little over half. The other
 * thread starts some 50–100 ms later (a fresh thread loading its code) and then takes from this
 * part's end whenever it runs out, so this thread should be the one left with work at the end.
 */
const FIRST_SHARE = Number(process.env.TRANSCRIPT_DOCTOR_FIRST_SHARE ?? 0.58);
/** Less left than this and this thread reads it itself: a range handed over costs a request and a join. */
const MIN_STEAL_BYTES = 2 * MiB;

/**
 * Reads a file with a second thread's help, into exactly what one thread would have produced.
 * This thread reads from the start. Once it has read the head, it knows the format and the decoder
 * state the rest starts from, and hands the file from a line past the middle to the end to the
 * other thread. That thread takes from the end of this thread's part each time it runs out (see
 * RangeSteal). The parts are joined in file order. When no line can be split at, this thread
 * reads on to the end alone.
 */
export async function loadShared(path: string, size: number, lines: number, format: TranscriptFormat | undefined, work: LineWork | undefined, between?: () => void): Promise<Transcript> {
  const thread = new DecoderThread(); // loads its code while this thread reads the head
  const steal = new RangeSteal();
  const builder = new TranscriptBuilder(format, undefined, work?.take).expectLines(lines).from(path);
  // The state before the head's last line that starts afresh (TranscriptFormat.startsAfresh), for a format that has such lines.
  let fresh: BuilderStart | undefined;
  let inHead = true;
  const line = (raw: RawLine) => {
    if (inHead) {
      const position = builder.position;
      if (position?.format.startsAfresh?.(raw.bytes.toString('latin1', 0, 64)) === true) fresh = position;
    }
    builder.line(raw);
  };
  let request: RangeRequest | undefined;
  let handed: Promise<RangeResult[]> | undefined;
  let shared: TranscriptFormat | undefined;
  // At first the head alone: then the format and state are known, and the part's end is set.
  const range: FileRange & { end: number } = {
    end: Math.min(MiB, Math.floor(size * FIRST_SHARE)),
    afterChunk: async (reached) => {
      if (inHead) {
        inHead = false;
        const position = builder.position;
        const start = position?.format.startsAfresh === undefined ? position : fresh;
        const split = start === undefined || !splitsWell(start.format, work) ? undefined : await recordBoundary(path, Math.floor(size * FIRST_SHARE), size, start.format, false);
        if (start === undefined || split === undefined || split <= reached) {
          thread.cancel();
          range.end = Number.POSITIVE_INFINITY; // on to the end of the file, as one thread reads it
          return;
        }
        range.end = split;
        shared = start.format;
        request = { path, start: split, format: shared.name, state: start.state, lines, size, ...(shared.conversationOf !== undefined ? { job: work!.job } : {}) };
        handed = thread.load(request, steal);
      } else if (steal.asked) {
        const left = range.end - reached;
        const stop = left < MIN_STEAL_BYTES ? undefined : await recordBoundary(path, reached + Math.floor(left / 2), range.end, shared!, true);
        steal.answer(stop);
        if (stop !== undefined) range.end = stop;
      }
    },
  };
  let summary;
  try {
    summary = await readFileLines(path, line, range);
  } catch (error) {
    thread.cancel();
    throw error;
  } finally {
    steal.close();
  }
  if (request === undefined) return builder.finish(summary, between);
  const first = builder.untrimmed(summary);
  const reached = builder.position;
  const rest = await handed!.catch(() => undefined);
  // The other thread guessed the decoder state at its first line; if this part ended elsewhere, the rest is read again here.
  const tails = startsAt(reached, request) && rest !== undefined ? rest : [await loadRange({ ...request, start: range.end, format: reached!.format.name, state: reached!.state })];
  return joinRanges(first, tails, reached!.format, work, between);
}

/**
 * Whether a second thread can take part of a format's files: for lines that are conversations of
 * their own, when it can do to them what this thread does (see LineWork.job). A format that settles
 * its replay at the end (TranscriptFormat.settle) settles it once the parts are joined.
 */
export function splitsWell(format: TranscriptFormat, work: LineWork | undefined): boolean {
  return format.conversationOf === undefined || work?.job !== undefined;
}

/** A thread that decodes ranges of a file, asked for once the first is known (see load-worker). */
class DecoderThread {
  private readonly worker = new Worker(WORKER);
  private readonly result: Promise<RangeResult[]>;

  constructor() {
    // Holds the process open only once it has work: a read that fails before then cannot leave it waiting.
    this.worker.unref();
    const parts: RangePart[] = [];
    this.result = new Promise((resolve, reject) => {
      this.worker.on('message', (part: RangePart | null) => {
        if (part === null) return resolve(parts.sort((a, b) => a.start - b.start).map(({ result }) => result));
        takePart(parts, part);
      });
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`decoder thread exited with code ${code}`)));
    });
    this.result.catch(() => {}); // a cancelled thread's end is no one's error
  }

  load(request: RangeRequest, steal: RangeSteal): Promise<RangeResult[]> {
    this.worker.ref();
    this.worker.postMessage({ request, steal: steal.buffer });
    return this.result;
  }

  cancel(): void {
    void this.worker.terminate();
  }
}

/**
 * The first line ending at or after `from`, before `end`, that sits between two records (`}`
 * before it, `{` after): a record written over several lines must be read whole by one thread
 * to be joined. Within a megabyte, one before a line the format's decoder starts afresh on (see
 * TranscriptFormat.startsAfresh) is taken first. `strict`: only such a line will do (or any
 * line between records, for a format without them); otherwise any line ending when the window
 * holds none. Undefined when there is none.
 */
async function recordBoundary(path: string, from: number, end: number, format: TranscriptFormat, strict: boolean): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const window = Buffer.alloc(Math.min(4 * MiB, end - from));
    const { bytesRead } = await file.read(window, 0, window.length, from);
    const read = window.subarray(0, bytesRead);
    let newline = strict ? -1 : read.indexOf(0x0a);
    let between = -1;
    for (let at = read.indexOf(0x0a); at !== -1; at = read.indexOf(0x0a, at + 1)) {
      const before = read[at - 1] === 0x0d ? read[at - 2] : read[at - 1];
      if (before !== 0x7d || read[at + 1] !== 0x7b) continue;
      if (between === -1 && !(strict && format.startsAfresh !== undefined)) between = at;
      if (format.startsAfresh === undefined || at > MiB) break;
      if (format.startsAfresh(read.toString('latin1', at + 1, Math.min(at + 65, read.length)))) {
        between = at;
        break;
      }
    }
    if (between !== -1) newline = between;
    return newline === -1 || from + newline + 1 >= end ? undefined : from + newline + 1;
  } finally {
    await file.close();
  }
}

/**
 * The parts after the first, in file order: their numbers continue the first's. `trim`: the spare
 * room left is given back (not for a checkpoint's model, saved with little spare room for what follows it).
 */
export function joinRanges(first: Transcript, tails: readonly RangeResult[], format: TranscriptFormat, work: LineWork | undefined, between?: () => void, trim = true): Transcript {
  for (const { transcript: second, lines: found } of tails) {
    const lines = first.lines;
    if (found !== undefined) work!.merge(found, lines);
    const tail = EntryStore.revive(second.entries);
    first.entries.reserveFor(tail);
    appendStore(first.entries, tail, lines, translation(tail, first.entries));
    for (const issue of second.lineIssues) first.lineIssues.push({ ...issue, line: issue.line + lines, ...(issue.through === undefined ? {} : { through: issue.through + lines }) });
    if (second.lastLine !== undefined) first.lastLine = { ...second.lastLine, line: second.lastLine.line + lines };
    first.lines += second.lines;
    first.bytes += second.bytes;
    first.parsedLines += second.parsedLines;
    first.format ??= second.format;
  }
  if (trim) first.entries.trim(between);
  // Each part was decoded without the others: what only the whole file settles is settled now.
  addLateFacts(format, first.entries);
  const end = tails.at(-1)?.end;
  if (end !== undefined) decoderEnds.set(first, end);
  return first;
}
