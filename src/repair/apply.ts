import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Encoder, TranscriptFormat } from '../formats/format.js';
import { readFileLines } from '../io/file-lines.js';
import { gluedRecords } from '../io/glued-records.js';
import { SplitJoiner } from '../io/split-records.js';
import type { LineEnding } from '../io/line-reader.js';
import { rewriteJson } from '../json/rewrite.js';
import { addLateFacts } from '../pipeline/load-transcript.js';
import { positionalId, positionOf } from '../model/entry.js';
import { KIND_CODE, KIND_MASK } from '../model/entry-bits.js';
import { EntryStore } from '../model/entry-store.js';
import { splitSpans, type LineIssue, type Transcript } from '../model/transcript.js';
import type { EntryEdit, Placement, RepairPlan } from './plan.js';

const EOL: Record<LineEnding, string> = { lf: '\n', crlf: '\r\n', none: '' };
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Each line ending's bytes, made once: a buffer per written line would be as many allocations as lines. */
const ENDINGS: Record<string, Buffer> = Object.fromEntries(Object.values(EOL).map((ending) => [ending, Buffer.from(ending)]));
/** What a chunk of kept lines usually comes to: the reader's chunk size, with room for a few edited lines. */
const CHUNK_BYTES = (1 << 20) + (64 << 10);
const HEADER = KIND_CODE['header'];

/**
 * Second pass of a repair: streams the source again and writes every line it keeps, byte for
 * byte unless the plan edits it, with moved and new lines after their anchors. With
 * `fixEndings`, a last line without a line ending gets one and a byte order mark goes.
 *
 * It also returns the model of what it wrote, so the findings that remain can be judged
 * without parsing the output again: kept lines reuse their decoded entries, renumbered, and
 * only edited, moved and new lines are decoded afresh. `write` gets the chunks in order, one at
 * a time; a chunk is the writer's again once its write settles.
 */
export async function applyPlan(
  source: { path: string; transcript: Transcript; format: TranscriptFormat & { encoder: Encoder } },
  plan: RepairPlan,
  write: (chunk: Buffer) => Promise<void>,
  fixEndings = true,
): Promise<Transcript> {
  const { transcript, format } = source;
  const entriesIn = transcript.entries;
  // Line → entry index + 1 (0: no entry; a glued line holds several, the last one counts); the entry itself is read when its line comes.
  const indexOfLine = new Int32Array(Math.max(transcript.lines, entriesIn.length === 0 ? 0 : entriesIn.line(entriesIn.length - 1)) + 1);
  for (let i = 0; i < entriesIn.length; i++) indexOfLine[entriesIn.line(i)] = i + 1;
  const hasEntry = (line: number): boolean => line < indexOfLine.length && indexOfLine[line]! !== 0;
  // The entry index, -1 for none: most lines are copied as they are, and their entries are read from the columns, never as views.
  const entryOn = (line: number): number => (hasEntry(line) ? indexOfLine[line]! - 1 : -1);
  const badUtf8 = new Set(transcript.lineIssues.filter((issue) => issue.kind === 'invalid-utf8').map((issue) => issue.line));
  const broken = new Map<number, LineIssue[]>();
  const joiner = new SplitJoiner(splitSpans(transcript));
  for (const issue of transcript.lineIssues) if (issue.kind !== 'glued' && issue.kind !== 'split') broken.set(issue.line, [...(broken.get(issue.line) ?? []), issue]);
  const decoder = format.createDecoder();
  const output: Transcript = { format: format.name, semantics: format.semantics, entries: new EntryStore(entriesIn), lineIssues: [], bom: false, bytes: 0, lines: 0, parsedLines: 0 };
  // Sized once: about as many entries as the source, not grown by copies that each leave the old columns to the collector.
  output.entries.reserveLike(entriesIn);
  let lastEnding = '';
  let lastParsed = false;
  const fd = openSync(source.path, 'r');
  let pieces: Buffer[] = [];
  let eol = '\n';
  // Positions of kept entries change when lines are dropped or added before them; references by position must follow.
  const newIndex = new Int32Array(entriesIn.length).fill(-1);

  const put = (bytes: Buffer, ending: string, from: number, value?: unknown): void => {
    output.lines += 1;
    const line = output.lines;
    if (from !== -1 || value !== undefined) {
      const entries = output.entries;
      if (from !== -1) newIndex[from] = entries.length;
      const info = from === -1 ? 0 : entriesIn.info[from]!;
      if (value === undefined && (info & KIND_MASK) !== HEADER) {
        entries.pushCopy(entriesIn, from, { line, offset: output.bytes, byteLength: bytes.length, idRef: entries.movedPosition(entriesIn, from, entries.length) });
      } else {
        const entry = decoder.decode(value ?? JSON.parse(bytes.toString('utf8')), line, entries.length);
        entry.offset = output.bytes;
        entry.byteLength = bytes.length;
        entries.push(entry);
      }
      output.parsedLines += 1;
      if (value === undefined && badUtf8.size > 0 && badUtf8.has(entriesIn.line(from))) output.lineIssues.push({ kind: 'invalid-utf8', line, detail: 'invalid UTF-8 byte sequence' });
    }
    lastEnding = ending;
    lastParsed = from !== -1 || value !== undefined;
    const end = ENDINGS[ending]!;
    pieces.push(bytes, end);
    output.bytes += bytes.length + end.length;
  };
  /** A compaction that keeps history from a position gets that entry's new position. */
  const followPositions = (edits: readonly EntryEdit[] | undefined, from: number): readonly EntryEdit[] | undefined => {
    const kept = edits?.find((edit) => edit.kind === 'set-first-kept')?.id ?? (from === -1 || entriesIn.rare.size === 0 ? undefined : entriesIn.rare.get(from)?.firstKeptId);
    const old = kept === undefined ? undefined : positionOf(kept);
    const moved = old === undefined || old >= newIndex.length || newIndex[old] === -1 ? undefined : newIndex[old];
    if (moved === undefined || (moved === old && edits?.every((edit) => edit.kind !== 'set-first-kept'))) return edits;
    return [...(edits ?? []).filter((edit) => edit.kind !== 'set-first-kept'), { kind: 'set-first-kept', id: positionalId(moved) }];
  };
  const lineAt = (line: number): Buffer => {
    const entry = entriesIn.at(entryOn(line));
    const buffer = Buffer.allocUnsafe(entry.byteLength);
    readSync(fd, buffer, 0, entry.byteLength, entry.offset);
    return buffer;
  };
  const putEdited = (bytes: Buffer, given: readonly EntryEdit[] | undefined, from: number): void => {
    const edits = followPositions(given, from);
    if (edits === undefined) return put(bytes, eol, from);
    const { text, value } = rewriteJson(bytes.toString('utf8'), (parsed) => format.encoder.apply(parsed, edits));
    put(Buffer.from(text), eol, from, value);
  };
  const putPlacement = (placement: Placement): void => {
    if (placement.kind === 'move') return putEdited(lineAt(placement.line), plan.edits.get(placement.line), entryOn(placement.line));
    const from = placement.value.timestampFrom;
    const stamp = from !== undefined && hasEntry(from) ? JSON.parse(lineAt(from).toString('utf8')) : undefined;
    const value = format.encoder.create(placement.value, stamp);
    put(Buffer.from(JSON.stringify(value)), eol, -1, value);
  };
  // One write in flight while the next chunk is read and copied: the two overlap, writes stay in order.
  let writing: Promise<void> = Promise.resolve();
  // Chunks are copied into two buffers taken in turn (a write is done with its chunk when it settles):
  // a fresh buffer per chunk would be a fresh mapping of memory to fault in, and garbage, per megabyte written.
  const chunks: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];
  let turn = 0;
  const flush = async (): Promise<void> => {
    if (pieces.length === 0) return;
    let length = 0;
    for (const piece of pieces) length += piece.length;
    if (chunks[turn]!.length < length) chunks[turn] = Buffer.allocUnsafeSlow(Math.max(length, CHUNK_BYTES));
    const chunk = chunks[turn]!.subarray(0, length);
    turn ^= 1;
    let at = 0;
    for (const piece of pieces) at += piece.copy(chunk, at);
    pieces = [];
    await writing;
    writing = write(chunk);
    // Handled here so a failure between two chunks is not an unhandled rejection; the await above or below reports it.
    writing.catch(() => undefined);
  };

  try {
    if (!fixEndings && transcript.bom) {
      pieces.push(BOM);
      output.bom = true;
    }
    plan.after.get(0)?.forEach(putPlacement);
    // Kept lines are views into the reader's buffers: each chunk's pieces are copied out (flush) before that buffer is refilled.
    await readFileLines(
      source.path,
      (raw) => {
        const joined = joiner.take(raw.number, raw.bytes, raw.eol);
        if (joined === null) return;
        const number = joined?.first ?? raw.number;
        const bytes = joined?.bytes ?? raw.bytes;
        const split = plan.split.has(number);
        if (split || !plan.skip.has(number)) eol = raw.eol === 'none' ? (fixEndings || plan.after.has(number) ? eol : '') : EOL[raw.eol];
        if (split && joined !== undefined) {
          put(bytes, eol, -1, JSON.parse(bytes.toString('utf8')));
          if (!isUtf8(bytes)) output.lineIssues.push({ kind: 'invalid-utf8', line: output.lines, detail: 'invalid UTF-8 byte sequence' });
        } else if (split) {
          for (const record of gluedRecords(bytes, (value) => format.isRecord(value))?.records ?? []) {
            const piece = bytes.subarray(record.start, record.end);
            put(piece, eol, -1, record.value);
            if (!isUtf8(piece)) output.lineIssues.push({ kind: 'invalid-utf8', line: output.lines, detail: 'invalid UTF-8 byte sequence' });
          }
        } else if (!plan.skip.has(number)) {
          putEdited(bytes, plan.edits.get(number), entryOn(number));
          // A broken line a pass keeps (one that only splits glued records) is still broken in its output.
          if (!hasEntry(number)) for (const issue of broken.get(number) ?? []) output.lineIssues.push({ ...issue, line: output.lines });
        }
        plan.after.get(number)?.forEach(putPlacement);
      },
      { afterChunk: flush },
    );
    await flush();
    await writing;
  } finally {
    closeSync(fd);
  }
  if (output.lines > 0) output.lastLine = { line: output.lines, eol: lastEnding === '\r\n' ? 'crlf' : lastEnding === '' ? 'none' : 'lf', parsed: lastParsed };
  decoder.end?.();
  addLateFacts(format, output.entries);
  output.entries.trim();
  return output;
}

