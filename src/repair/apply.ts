import { isUtf8 } from 'node:buffer';
import { readFileLines } from '../io/file-lines.js';
import { gluedRecords } from '../io/glued-records.js';
import { SplitJoiner } from '../io/split-records.js';
import { splitSpans, type Transcript } from '../model/transcript.js';
import type { RepairPlan } from './plan.js';
import { applyByEntries, linesByEntries } from './apply-by-entries.js';
import { OutputLines, type Source, type Write } from './output-lines.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What a chunk of kept lines usually comes to: the reader's chunk size, with room for a few edited lines. */
const CHUNK_BYTES = (1 << 20) + (64 << 10);

/**
 * Second pass of a repair: writes every line the source keeps, byte for byte unless the plan
 * edits it, with moved and new lines after their anchors. With `fixEndings`, a last line without
 * a line ending gets one and a byte order mark goes.
 *
 * It also returns the model of what it wrote, so the findings that remain can be judged
 * without parsing the output again. `write` gets the chunks in order, one at a time; a chunk
 * is the writer's again once its write settles. Without `write`, only the model is made.
 * A file of one entry per line is not read line by line (see applyByEntries) unless `byEntries` is false.
 */
export async function applyPlan(source: Source, plan: RepairPlan, write: Write | undefined, fixEndings = true, byEntries = true): Promise<Transcript> {
  const lines = new OutputLines(source, plan, fixEndings);
  try {
    const endings = byEntries ? linesByEntries(source.transcript, plan) : undefined;
    if (endings !== undefined) await applyByEntries(source, lines, endings, write);
    else await applyByReading(source, lines, write);
  } finally {
    lines.close();
  }
  return lines.finish();
}

/** Streams the source again, line by line: for files whose lines are not one entry each (glued, split, broken or blank lines). */
async function applyByReading(source: Source, lines: OutputLines, write: Write | undefined): Promise<void> {
  const { transcript, format } = source;
  const { plan } = lines;
  const joiner = new SplitJoiner(splitSpans(transcript));
  // One write in flight while the next chunk is read and copied: the two overlap, writes stay in order.
  let writing: Promise<void> = Promise.resolve();
  // Chunks are copied into two buffers taken in turn (a write is done with its chunk when it settles):
  // a fresh buffer per chunk would be a fresh mapping of memory to fault in, and garbage, per megabyte written.
  const chunks: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];
  let turn = 0;
  const flush = async (): Promise<void> => {
    const pieces = lines.take();
    if (pieces.length === 0 || write === undefined) return;
    let length = 0;
    for (const piece of pieces) length += piece.length;
    if (chunks[turn]!.length < length) chunks[turn] = Buffer.allocUnsafeSlow(Math.max(length, CHUNK_BYTES));
    const chunk = chunks[turn]!.subarray(0, length);
    turn ^= 1;
    let at = 0;
    for (const piece of pieces) at += piece.copy(chunk, at);
    await writing;
    writing = write(chunk);
    // Handled here so a failure between two chunks is not an unhandled rejection; the await above or below reports it.
    writing.catch(() => undefined);
  };

  if (!lines.fixEndings && transcript.bom) lines.prefix(BOM);
  lines.placeAfter(0);
  // Kept lines are views into the reader's buffers: each chunk's pieces are copied out (flush) before that buffer is refilled.
  await readFileLines(
    source.path,
    (raw) => {
      const joined = joiner.take(raw.number, raw.bytes, raw.eol);
      if (joined === null) return;
      const number = joined?.first ?? raw.number;
      const bytes = joined?.bytes ?? raw.bytes;
      if (!plan.split.has(number)) return lines.line(number, bytes, raw.eol);
      if (joined !== undefined) {
        lines.record(number, bytes, raw.eol, JSON.parse(bytes.toString('utf8')));
        if (!isUtf8(bytes)) lines.noteInvalidUtf8();
      } else {
        for (const record of gluedRecords(bytes, (value) => format.isRecord(value))?.records ?? []) {
          const piece = bytes.subarray(record.start, record.end);
          lines.record(number, piece, raw.eol, record.value);
          if (!isUtf8(piece)) lines.noteInvalidUtf8();
        }
      }
      lines.placeAfter(number);
    },
    { afterChunk: flush },
  );
  await flush();
  await writing;
}
