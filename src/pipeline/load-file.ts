import { closeSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { TranscriptFormat } from '../formats/format.js';
import { documentFormat } from '../formats/registry.js';
import { readFileLines } from '../io/file-lines.js';
import { openRegularSync } from '../io/regular-file.js';
import type { Transcript } from '../model/transcript.js';
import { collectGarbage } from './collect-garbage.js';
import type { LineWork } from './line-work.js';
import { loadShared, splitsWell, workerAvailable } from './load-shared.js';
import { loadBytes, loadDocument, TranscriptBuilder } from './load-transcript.js';
import { scavengingAlone } from './scavenge-alone.js';

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
/**
 * Reads a transcript file. Mid-sized files are decoded by two threads (see loadShared), the
 * parts joined into exactly what a single pass would have produced. `twoThreads` is
 * off when files are already spread over threads (`--jobs`). A file whose lines are conversations
 * of their own (requests, datasets) has each line handed to `work`; when the work says how
 * (LineWork.job), the other thread does it to its part and `work` takes what it found.
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
  return scavengingAlone(2, () => loadShared(path, size, lines, format, work, collector(size)));
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
