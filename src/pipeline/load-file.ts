import { closeSync, existsSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TranscriptFormat } from '../formats/format.js';
import { readFileLines } from '../io/file-lines.js';
import { openRegularSync } from '../io/regular-file.js';
import { EntryStore } from '../model/entry-store.js';
import { translation } from '../model/store-translation.js';
import type { Transcript } from '../model/transcript.js';
import { collectGarbage } from './collect-garbage.js';
import type { LineWork } from './line-work.js';
import { loadRange, type RangeRequest, type RangeResult } from './load-range.js';
import { addLateFacts, loadBytes, loadDocument, TranscriptBuilder, type BuilderStart } from './load-transcript.js';
import { documentFormat } from '../formats/registry.js';

const MiB = 1 << 20;
/** Below this a second thread costs more to start than it saves. */
const PARALLEL_MIN_BYTES = Number(process.env.TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES ?? 24 * MiB);
/** Read in one go; never a file big enough for two threads (the tests make every file that big). */
const SMALL_FILE_BYTES = Math.min(4 * MiB, PARALLEL_MIN_BYTES - 1);
/**
 * Shorter lines on average, and one thread is as fast. Joining the halves costs per entry (~1.7 µs),
 * the second thread saves per byte (~3.7 ns), so it pays from about 500 bytes a line on average.
 * Measured on 128 MiB files (2 cores, same run): real-shaped pi and Claude Code files (1.6–2 KB
 * mean, ~750 B median lines) scan 7–15% faster and repair ~10% faster with it, for ~25 MB more
 * memory; a real-shaped Codex rollout (750 B mean) 2–12%; 9 KB lines 8–14%.
 */
const MIN_MEAN_LINE_BYTES = Number(process.env.TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES ?? 512);
/** Above this memory matters more than speed: two threads hold two heaps of parsing garbage. */
const PARALLEL_MAX_BYTES = 512 * MiB;
/** The worker is the compiled module beside this one; under a TypeScript test runner there is none. */
const WORKER = new URL('./load-worker.js', import.meta.url);
const workerAvailable = existsSync(fileURLToPath(WORKER));

/**
 * Reads a transcript file. Mid-sized files are decoded by two threads, each taking one half;
 * the halves are joined into exactly what a single pass would have produced. `twoThreads` is
 * off when files are already spread over threads (`--jobs`). A file whose lines are conversations
 * of their own (requests, datasets) has each line handed to `work`; when the work says how
 * (LineWork.job), the other thread does it to its half and `work` takes what it found.
 */
export async function loadTranscriptFile(path: string, format?: TranscriptFormat, twoThreads = true, work?: LineWork): Promise<Transcript> {
  // Refuses a FIFO or a device before reading: either may never end.
  const { fd, size } = openRegularSync(path);
  try {
    // A format's one-document file (a legacy Gemini CLI session, a checkpoint) is read whole, as one record.
    const owner = documentFormat(path, format);
    if (owner !== undefined) return loadDocument(Buffer.from(readSmallFile(fd, size)), format, path, owner);
    // A small file is one blocking read: with thousands of sessions, stream set-up and thread-pool
    // round trips would cost more than parsing, and a CLI has nothing else to do meanwhile.
    if (size <= SMALL_FILE_BYTES) return loadBytes(readSmallFile(fd, size), format, work?.take, path);
  } finally {
    closeSync(fd);
  }
  const sequential = async (lines?: number) => {
    const builder = new TranscriptBuilder(format, undefined, work?.take).expectLines(lines ?? (await sampleLines(path, 0, size))).from(path);
    return builder.finish(await readFileLines(path, builder.line), collector(size));
  };
  if (!twoThreads || !workerAvailable || size < PARALLEL_MIN_BYTES || size > PARALLEL_MAX_BYTES || (format !== undefined && !splitsWell(format, work))) return sequential();
  const lines = await sampleLines(path, 0, size);
  if (size < MIN_MEAN_LINE_BYTES * lines) return sequential(lines);
  // Started before the split is known: the thread loads its code while this one reads the file's head.
  const worker = new DecoderThread();
  const head = await headPosition(path, format);
  const split = head === undefined ? undefined : await splitPoint(path, size, head.format);
  if (split === undefined || head === undefined || !splitsWell(head.format, work)) {
    worker.cancel();
    return sequential(lines);
  }
  const perLine = head.format.conversationOf !== undefined;
  const request: RangeRequest = { path, start: split, format: head.format.name, state: head.state, ...(perLine ? { job: work!.job } : {}) };
  const second = worker.load(request);
  // Sized for the whole file and left untrimmed: the second half is copied in without growing a column or rebuilding the id index.
  const builder = new TranscriptBuilder(format, undefined, perLine ? work!.take : undefined).expectLines(lines);
  const first = builder.untrimmed(await readFileLines(path, builder.line, { end: split }));
  const reached = builder.position;
  // The worker guessed the decoder state at the split from the file's head; if the first half ended elsewhere, redo the second half here.
  const agreed = reached !== undefined && reached.format === head.format && JSON.stringify(reached.state) === JSON.stringify(head.state);
  const rest = await second.catch(() => undefined);
  const tail = agreed && rest !== undefined ? rest : reached === undefined ? undefined : await loadRange({ ...request, format: reached.format.name, state: reached.state });
  if (tail === undefined) return sequential(lines);
  if (tail.lines !== undefined) work!.merge(tail.lines, first.lines);
  return join(first, tail.transcript, reached!.format, collector(size));
}

/**
 * Whether a second thread can take half of a format's files: for lines that are conversations of
 * their own, when it can do to them what this thread does (see LineWork.job). A format that settles
 * its replay at the end (TranscriptFormat.settle) settles it once the halves are joined.
 */
function splitsWell(format: TranscriptFormat, work: LineWork | undefined): boolean {
  return format.conversationOf === undefined || work?.job !== undefined;
}

/** Files from this size on leave enough grown-out columns behind to be worth a collection. */
const COLLECT_AFTER_BYTES = 256 * MiB;

function collector(size: number): (() => void) | undefined {
  return size >= COLLECT_AFTER_BYTES ? collectGarbage : undefined;
}

/** Read buffer reused by every small file this thread loads (loadBytes keeps no reference to it). */
let scratch: Buffer = Buffer.allocUnsafe(0);

/**
 * The whole file, in `scratch`. A fresh buffer per file would be fresh pages per file: page
 * faults that, with `--jobs`, the threads of one process take turns on.
 */
function readSmallFile(fd: number, size: number): Buffer {
  try {
    let length = 0;
    for (;;) {
      // One byte more than the size: the read that finds the end needs room too.
      if (length === scratch.length) scratch = grow(scratch, length, Math.max(size + 1, 2 * length, 64 * 1024));
      const read = readSync(fd, scratch, length, scratch.length - length, null);
      if (read === 0) return scratch.subarray(0, length);
      length += read;
    }
  } finally {
    if (scratch.length > 2 * SMALL_FILE_BYTES) scratch = Buffer.allocUnsafe(0); // a file that grew while read
  }
}

function grow(buffer: Buffer, used: number, size: number): Buffer {
  const bigger = Buffer.allocUnsafe(size);
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}

/** A thread that decodes one range of a file, asked for once it is known (see load-worker). */
class DecoderThread {
  private readonly worker = new Worker(WORKER);
  private readonly result: Promise<RangeResult>;

  constructor() {
    // Holds the process open only once it has work: a read that fails before then cannot leave it waiting.
    this.worker.unref();
    this.result = new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`decoder thread exited with code ${code}`)));
    });
    this.result.catch(() => {}); // a cancelled thread's end is no one's error
  }

  load(request: RangeRequest): Promise<RangeResult> {
    this.worker.ref();
    this.worker.postMessage(request);
    return this.result;
  }

  cancel(): void {
    void this.worker.terminate();
  }
}

/**
 * About how many lines a byte range holds, from the line endings in windows spread evenly over
 * it: a megabyte read instead of the whole range, within a few percent on real sessions.
 */
async function sampleLines(path: string, start: number, end: number): Promise<number> {
  const WINDOWS = 32;
  const file = await open(path, 'r');
  try {
    const window = Buffer.allocUnsafe(Math.min(32 * 1024, end - start));
    let sampled = 0;
    let lines = 0;
    for (let k = 0; k < WINDOWS; k++) {
      const at = start + Math.floor(((end - start - window.length) * k) / (WINDOWS - 1));
      const { bytesRead } = await file.read(window, 0, window.length, at);
      sampled += bytesRead;
      for (let nl = window.indexOf(0x0a); nl !== -1 && nl < bytesRead; nl = window.indexOf(0x0a, nl + 1)) lines += 1;
    }
    return sampled === 0 ? 0 : Math.ceil(((end - start) * lines) / sampled) + 1;
  } finally {
    await file.close();
  }
}

/**
 * The main thread's share of the file. A little over half: the other thread starts some 50–100 ms
 * later (a fresh thread loading its code) and runs colder code; a profile of both threads on a
 * 128 MiB file puts the point where they finish together at 56%.
 */
const FIRST_SHARE = Number(process.env.TRANSCRIPT_DOCTOR_FIRST_SHARE ?? 0.56);

/**
 * The first line ending after the main thread's share of the file that sits between two records
 * (`}` before it, `{` after): a record written over several lines must be read whole by one
 * thread to be joined; within a megabyte of the share, one before a line the format's decoder
 * starts afresh on (see TranscriptFormat.startsAfresh) is taken first. Any line ending when the
 * window holds no such one.
 */
async function splitPoint(path: string, size: number, format: TranscriptFormat): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const window = Buffer.alloc(4 * MiB);
    const middle = Math.floor(size * FIRST_SHARE);
    const { bytesRead } = await file.read(window, 0, window.length, middle);
    const read = window.subarray(0, bytesRead);
    let newline = read.indexOf(0x0a);
    let between = -1;
    for (let at = newline; at !== -1; at = read.indexOf(0x0a, at + 1)) {
      const before = read[at - 1] === 0x0d ? read[at - 2] : read[at - 1];
      if (before !== 0x7d || read[at + 1] !== 0x7b) continue;
      if (between === -1) between = at;
      if (format.startsAfresh === undefined || at > MiB) break;
      if (format.startsAfresh(read.toString('latin1', at + 1, Math.min(at + 65, read.length)))) {
        between = at;
        break;
      }
    }
    if (between !== -1) newline = between;
    return newline === -1 || middle + newline + 1 >= size ? undefined : middle + newline + 1;
  } finally {
    await file.close();
  }
}

/**
 * Format and decoder state after the first megabyte: what the second thread starts from. For a
 * format whose state changes as it reads, the state before the last line that starts afresh (see
 * TranscriptFormat.startsAfresh), where the second thread will start.
 */
async function headPosition(path: string, format: TranscriptFormat | undefined) {
  const builder = new TranscriptBuilder(format);
  let fresh: BuilderStart | undefined;
  // A line cut by the megabyte's end is left for the thread that reads it whole.
  await readFileLines(
    path,
    (raw) => {
      if (raw.eol === 'none') return;
      const position = builder.position;
      if (position?.format.startsAfresh?.(raw.bytes.toString('latin1', 0, 64)) === true) fresh = position;
      builder.line(raw);
    },
    { end: MiB },
  );
  const position = builder.position;
  return position?.format.startsAfresh === undefined ? position : fresh;
}

/** The second half's numbers continue the first half's. */
function join(first: Transcript, second: Transcript, format: TranscriptFormat, between?: () => void): Transcript {
  const lines = first.lines;
  const tail = EntryStore.revive(second.entries);
  first.entries.reserveFor(tail);
  first.entries.append(tail, lines, translation(tail, first.entries));
  first.entries.trim(between);
  // Each half was decoded without the other: what only the whole file settles is settled now.
  addLateFacts(format, first.entries);
  for (const issue of second.lineIssues) first.lineIssues.push({ ...issue, line: issue.line + lines, ...(issue.through === undefined ? {} : { through: issue.through + lines }) });
  if (second.lastLine !== undefined) first.lastLine = { ...second.lastLine, line: second.lastLine.line + lines };
  first.lines += second.lines;
  first.bytes += second.bytes;
  first.parsedLines += second.parsedLines;
  first.format ??= second.format;
  return first;
}
