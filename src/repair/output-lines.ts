import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Encoder, TranscriptFormat } from '../formats/format.js';
import type { LineEnding } from '../io/line-reader.js';
import { lineText, readsAsLatin1 } from '../io/line-text.js';
import { ReadWindow } from '../io/read-window.js';
import { rewriteJson } from '../json/rewrite.js';
import { addLateFacts } from '../pipeline/load-transcript.js';
import { positionalId, positionOf } from '../model/entry.js';
import { KIND_CODE, KIND_MASK } from '../model/entry-bits.js';
import { EntryStore } from '../model/entry-store.js';
import { copyRun, movedPosition, pushCopy } from '../model/store-copy.js';
import type { LineIssue, Transcript } from '../model/transcript.js';
import type { EntryEdit, Placement, RepairPlan } from './plan.js';

const EOL: Record<LineEnding, string> = { lf: '\n', crlf: '\r\n', none: '' };
/** Each line ending's bytes, made once: a buffer per written line would be as many allocations as lines. */
const ENDINGS: Record<string, Buffer> = Object.fromEntries(Object.values(EOL).map((ending) => [ending, Buffer.from(ending)]));
const HEADER = KIND_CODE['header'];

export interface Source {
  path: string;
  transcript: Transcript;
  format: TranscriptFormat & { encoder: Encoder };
}

/** Takes a pass's bytes in order: a list is one chunk, its pieces in order. */
export type Write = (chunk: Buffer | readonly Buffer[]) => Promise<void>;

/**
 * The output of a repair pass, line by line in order: its bytes as pieces (kept lines are the
 * caller's buffers, taken with take()) and its model. Kept lines reuse their decoded entries,
 * renumbered; only edited, moved and new lines are decoded afresh.
 */
export class OutputLines {
  private readonly output: Transcript;
  /** The line ending of the last kept line: what moved and new lines after it get. */
  private eol = '\n';
  private pieces: Buffer[] = [];
  private lastEnding = '';
  private lastParsed = false;
  private readonly entriesIn: EntryStore;
  /** Line → entry index + 1 (0: no entry; a glued line holds several, the last one counts). */
  private readonly indexOfLine: Int32Array;
  private readonly badUtf8: Set<number>;
  private readonly broken = new Map<number, LineIssue[]>();
  private readonly decoder: ReturnType<TranscriptFormat['createDecoder']>;
  /** Positions of kept entries change when lines are dropped or added before them; references by position must follow. */
  private readonly newIndex: Int32Array;
  private readonly fd: number;
  /** The time a new line gets when the line it copies one from has none: the source's, so `--diff` and a write agree. */
  private readonly at: Date;
  private readonly window: ReadWindow;

  constructor(
    private readonly source: Source,
    readonly plan: RepairPlan,
    /** A last line without a line ending gets one, and a byte order mark goes (see applyPlan). */
    readonly fixEndings: boolean,
  ) {
    const { transcript, format } = source;
    const entriesIn = (this.entriesIn = transcript.entries);
    this.indexOfLine = new Int32Array(Math.max(transcript.lines, entriesIn.length === 0 ? 0 : entriesIn.line(entriesIn.length - 1)) + 1);
    for (let i = 0; i < entriesIn.length; i++) this.indexOfLine[entriesIn.line(i)] = i + 1;
    this.badUtf8 = new Set(transcript.lineIssues.filter((issue) => issue.kind === 'invalid-utf8').map((issue) => issue.line));
    for (const issue of transcript.lineIssues) if (issue.kind !== 'glued' && issue.kind !== 'split') this.broken.set(issue.line, [...(this.broken.get(issue.line) ?? []), issue]);
    this.decoder = format.createDecoder();
    this.output = { format: format.name, semantics: format.semantics, entries: new EntryStore(entriesIn), lineIssues: [], bom: false, bytes: 0, lines: 0, parsedLines: 0 };
    // Sized once: about as many entries as the source, not grown by copies that each leave the old columns to the collector.
    this.output.entries.reserveLike(entriesIn);
    this.newIndex = new Int32Array(entriesIn.length).fill(-1);
    this.fd = openSync(source.path, 'r');
    this.window = new ReadWindow(this.fd);
    this.at = fstatSync(this.fd).mtime;
  }

  private hasEntry(line: number): boolean {
    return line < this.indexOfLine.length && this.indexOfLine[line]! !== 0;
  }

  /** The entry index, -1 for none: most lines are copied as they are, and their entries are read from the columns, never as views. */
  private entryOn(line: number): number {
    return this.hasEntry(line) ? this.indexOfLine[line]! - 1 : -1;
  }

  /**
   * Whether entry i, kept as it is, still needs its line's bytes: a header is decoded again, and
   * a compaction that keeps history from a position follows that entry to its new place.
   */
  needsBytes(i: number): boolean {
    if ((this.entriesIn.info[i]! & KIND_MASK) === HEADER) return true;
    return this.entriesIn.rare.size > 0 && this.entriesIn.rare.get(i)?.firstKeptId !== undefined;
  }

  /** The pieces handed out since the last take, in order. */
  take(): Buffer[] {
    const pieces = this.pieces;
    this.pieces = [];
    return pieces;
  }

  /** Bytes that start the output (a byte order mark kept as it was). */
  prefix(bytes: Buffer): void {
    this.pieces.push(bytes);
    this.output.bom = true;
  }

  /**
   * A source line that is one line of its own (not part of a record split over lines): kept,
   * edited or dropped as planned, with what the plan puts after it.
   */
  line(number: number, bytes: Buffer, ending: LineEnding): void {
    if (!this.plan.skip.has(number)) {
      this.eol = this.endingOf(number, ending);
      this.putEdited(bytes, this.plan.edits.get(number), this.entryOn(number));
      // A broken line a pass keeps (one that only splits glued records) is still broken in its output.
      if (!this.hasEntry(number)) for (const issue of this.broken.get(number) ?? []) this.output.lineIssues.push({ ...issue, line: this.output.lines });
    }
    this.placeAfter(number);
  }

  /** What the plan puts after a source line. */
  placeAfter(number: number): void {
    this.plan.after.get(number)?.forEach(this.putPlacement);
  }

  /**
   * Lines `first` … `first + count - 1` kept byte for byte, their bytes (`byteLength` of them,
   * endings included) written by the caller itself (see applyByEntries): only their model. The
   * caller knows each is one entry, with no issue, that the plan neither edits them nor puts
   * anything after them, and that the last ends in `ending`.
   */
  copied(first: number, count: number, byteLength: number, ending: LineEnding): void {
    const { output, entriesIn } = this;
    const from = this.entryOn(first);
    const entries = output.entries;
    for (let k = 0; k < count; k++) this.newIndex[from + k] = entries.length + k;
    copyRun(entries, entriesIn, from, from + count, output.lines + 1, output.bytes);
    output.lines += count;
    output.parsedLines += count;
    output.bytes += byteLength;
    this.eol = this.lastEnding = EOL[ending];
    this.lastParsed = true;
  }

  /** A record written over several lines (or one of the records of a glued line), on a line of its own. */
  record(number: number, bytes: Buffer, ending: LineEnding, value: unknown): void {
    this.eol = this.endingOf(number, ending);
    this.put(bytes, -1, value);
  }

  /** The line ending a kept line is written with: its own, unless it has none and must get one. */
  private endingOf(number: number, ending: LineEnding): string {
    return ending === 'none' ? (this.fixEndings || this.plan.after.has(number) ? this.eol : '') : EOL[ending];
  }

  noteInvalidUtf8(): void {
    this.output.lineIssues.push({ kind: 'invalid-utf8', line: this.output.lines, detail: 'invalid UTF-8 byte sequence' });
  }

  /** The model, complete: call once every line is in. */
  finish(): Transcript {
    const output = this.output;
    if (output.lines > 0) output.lastLine = { line: output.lines, eol: this.lastEnding === '\r\n' ? 'crlf' : this.lastEnding === '' ? 'none' : 'lf', parsed: this.lastParsed };
    this.decoder.end?.();
    addLateFacts(this.source.format, output.entries);
    output.entries.trim();
    return output;
  }

  close(): void {
    closeSync(this.fd);
  }

  /**
   * The bytes of a source line that has an entry, read by its place. `reused`: from a window this
   * keeps (see ReadWindow), which the next such read may overwrite, for a caller done with them by
   * then (the lines a pass edits come in order, often several a window). Otherwise a buffer of
   * their own: a line moved or stamped is read while a reused one is still in use.
   */
  lineAt(line: number, reused = false): Buffer {
    const entry = this.entriesIn.at(this.entryOn(line));
    if (reused) return this.window.read(entry.offset, entry.byteLength);
    const buffer = Buffer.allocUnsafe(entry.byteLength);
    readSync(this.fd, buffer, 0, entry.byteLength, entry.offset);
    return buffer;
  }

  /** One output line, ended as the last kept line was; `from` the entry it copies, `value` the record to decode. */
  /**
   * A spliced line (valid UTF-8: the source line's bytes and new text) parsed for its entry as the
   * reader parses a line: from its bytes read as latin1 when the decoder takes that and no escape
   * stands against it (see readsAsLatin1), which saves decoding a long result's UTF-8 again.
   */
  private putSpliced(bytes: Buffer, from: number): void {
    const ascii = isAscii(bytes);
    const text = lineText(bytes, ascii || this.decoder.readsLatin1 === true);
    const latin1 = !ascii && this.decoder.readsLatin1 === true && readsAsLatin1(text);
    this.put(bytes, from, JSON.parse(latin1 || ascii ? text : lineText(bytes, false)), latin1);
  }

  private put(bytes: Buffer, from: number, value?: unknown, latin1 = false): void {
    const { output, entriesIn, eol } = this;
    output.lines += 1;
    const line = output.lines;
    if (from !== -1 || value !== undefined) {
      const entries = output.entries;
      if (from !== -1) this.newIndex[from] = entries.length;
      const info = from === -1 ? 0 : entriesIn.info[from]!;
      if (value === undefined && (info & KIND_MASK) !== HEADER) {
        pushCopy(entries, entriesIn, from, { line, offset: output.bytes, byteLength: bytes.length, idRef: movedPosition(entries, entriesIn, from, entries.length) });
      } else {
        const entry = this.decoder.decode(value ?? JSON.parse(bytes.toString('utf8')), line, entries.length, latin1);
        entry.offset = output.bytes;
        entry.byteLength = bytes.length;
        entries.push(entry);
      }
      output.parsedLines += 1;
      if (value === undefined && this.badUtf8.size > 0 && this.badUtf8.has(entriesIn.line(from))) this.noteInvalidUtf8();
    }
    this.lastEnding = eol;
    this.lastParsed = from !== -1 || value !== undefined;
    const end = ENDINGS[eol]!;
    this.pieces.push(bytes, end);
    output.bytes += bytes.length + end.length;
  }

  /** A compaction that keeps history from a position gets that entry's new position. */
  private followPositions(edits: readonly EntryEdit[] | undefined, from: number): readonly EntryEdit[] | undefined {
    const { entriesIn, newIndex } = this;
    const kept = edits?.find((edit) => edit.kind === 'set-first-kept')?.id ?? (from === -1 || entriesIn.rare.size === 0 ? undefined : entriesIn.rare.get(from)?.firstKeptId);
    const old = kept === undefined ? undefined : positionOf(kept);
    const moved = old === undefined || old >= newIndex.length || newIndex[old] === -1 ? undefined : newIndex[old];
    if (moved === undefined || (moved === old && edits?.every((edit) => edit.kind !== 'set-first-kept'))) return edits;
    return [...(edits ?? []).filter((edit) => edit.kind !== 'set-first-kept'), { kind: 'set-first-kept', id: positionalId(moved) }];
  }

  private putEdited(bytes: Buffer, given: readonly EntryEdit[] | undefined, from: number): void {
    const edits = this.followPositions(given, from);
    if (edits === undefined) return this.put(bytes, from);
    const spliced = this.spliced(bytes, edits, from);
    if (spliced !== undefined) return this.putSpliced(spliced, from);
    const { text, value } = rewriteJson(bytes.toString('utf8'), (parsed) => this.source.format.encoder.apply(parsed, edits));
    this.put(Buffer.from(text), from, value);
  }

  /**
   * The edited line as splices of its bytes, when the format can place its edits there (see
   * Encoder.spans): the line is neither decoded nor parsed whole to be edited. Not for a line whose
   * bytes are not UTF-8: those are written from their parsed value, as they were read.
   */
  private spliced(bytes: Buffer, edits: readonly EntryEdit[], from: number): Buffer | undefined {
    const spans = this.source.format.encoder.spans;
    if (spans === undefined || from === -1 || (this.badUtf8.size > 0 && this.badUtf8.has(this.entriesIn.line(from)))) return undefined;
    const splices = spans(bytes, edits);
    if (splices === undefined) return undefined;
    const pieces: Buffer[] = [];
    let at = 0;
    for (const splice of splices) {
      pieces.push(bytes.subarray(at, splice.start), Buffer.from(splice.text, 'utf8'));
      at = splice.end;
    }
    pieces.push(bytes.subarray(at));
    return Buffer.concat(pieces);
  }

  private readonly putPlacement = (placement: Placement): void => {
    if (placement.kind === 'move') return this.putEdited(this.lineAt(placement.line), this.plan.edits.get(placement.line), this.entryOn(placement.line));
    if (placement.kind === 'record') return this.put(Buffer.from(JSON.stringify(placement.value)), -1, placement.value);
    const from = placement.value.timestampFrom;
    const stamp = from !== undefined && this.hasEntry(from) ? JSON.parse(this.lineAt(from).toString('utf8')) : undefined;
    const value = this.source.format.encoder.create(placement.value, stamp, this.at);
    this.put(Buffer.from(JSON.stringify(value)), -1, value);
  };
}
