import { isAscii, isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { gluedRecords } from '../io/glued-records.js';
import { lineText, readsAsLatin1 } from '../io/line-text.js';
import { MAX_SPLIT_BYTES, MAX_SPLIT_LINES, splitRecords } from '../io/split-records.js';
import { LineSplitter, readLines, type RawLine, type ReadSummary } from '../io/line-reader.js';
import type { Decoder, LineConversation, TranscriptFormat } from '../formats/format.js';
import { detectFormat, isAnyRecord, likelyFormat } from '../formats/registry.js';
import { EntryStore } from '../model/entry-store.js';
import type { LineIssue, Transcript } from '../model/transcript.js';
import { countNul, describeGlued, describeParseError, isBlank } from './line-issues.js';

/** Lines parsed before any format recognised the file; kept so they can be decoded once one does. */
const MAX_UNDETECTED = 16;

/** Entries read before the tables of calls, results and ids are sized from theirs. */
const SAMPLE_ENTRIES = 1024;

export type Place = Pick<RawLine, 'number' | 'offset' | 'byteLength'>;

/** A line that did not parse as a record (`error`), or parsed as something no line is (`value`). */
interface HeldLine extends Place {
  bytes: Buffer;
  eol: RawLine['eol'];
  value: unknown;
  error?: unknown;
}

/**
 * Takes each parsed line of a file whose lines are whole conversations (see
 * TranscriptFormat.conversationOf), as it is read: such lines become no entries of the file.
 * `conversation` is undefined for a line in no shape the format knows. `place.bytes`, when
 * there, are the line's own (valid during the call only); a record glued to others or written
 * over several lines has none.
 */
export type ConversationSink = (conversation: LineConversation | undefined, place: Place & { bytes?: Buffer }, format: TranscriptFormat) => void;

/** Where a builder has got to: what a builder for the rest of the file starts from. */
export interface BuilderStart {
  format: TranscriptFormat;
  /** The decoder state at that point (see Decoder.state). */
  state: unknown;
}

/**
 * Turns lines into a Transcript: byte-level problems become line issues, parsed lines become
 * neutral entries through the detected format's decoder. Line numbers and offsets are those
 * of the lines it is given.
 */
/** Where a decoder got to at the end of what it read, as plain data (see Decoder.state): where reading more would start from. */
export interface DecoderEnd {
  format: string;
  state: unknown;
}

/** The decoder's end, for a transcript read to its end (see TranscriptBuilder.finish and joinRanges): what a checkpoint keeps. */
export const decoderEnds = new WeakMap<Transcript, DecoderEnd>();

export class TranscriptBuilder {
  readonly transcript: Transcript = { entries: new EntryStore(), lineIssues: [], bom: false, bytes: 0, lines: 0, parsedLines: 0 };
  private format: TranscriptFormat | undefined;
  private decoder: Decoder | undefined;
  private undetected: Array<{ value: unknown; raw: Place }> | undefined = [];
  private expected: number | undefined;
  /** Lines are conversations of their own, handed to the sink instead of decoded. */
  private perLine = false;
  /** Broken lines not yet judged: the lines after them may complete a record they start. */
  private held: { lines: HeldLine[]; bytes: number } | undefined;
  /** Where the file lives, for a file no line of which is unmistakable (see likelyFormat). */
  private path: string | undefined;

  /** With a format, detection is skipped and decoding starts from `state` (see Decoder.state). */
  constructor(format?: TranscriptFormat, state?: unknown, private readonly conversations?: ConversationSink) {
    if (format !== undefined) {
      this.perLine = format.conversationOf !== undefined;
      this.format = format;
      this.decoder = format.createDecoder(state);
      this.transcript.format = format.name;
      this.transcript.semantics = format.semantics;
    }
  }

  /**
   * About how many lines the input holds, when known: the store then sizes its columns once, up
   * front, instead of growing them by copies that each leave the old arrays to the collector.
   */
  expectLines(lines: number): this {
    this.expected = Math.ceil(lines * 1.08);
    this.transcript.entries.reserve(this.expected);
    return this;
  }

  /** The file's path, which names its format when no line does. */
  from(path: string): this {
    this.path = path;
    return this;
  }

  /** The format and decoder state reached so far, once a format has been detected. */
  get position(): BuilderStart | undefined {
    return this.format === undefined ? undefined : { format: this.format, state: this.decoder!.state() };
  }

  /** The transcript, once every line has been given. */
  finish(summary: ReadSummary, between?: () => void): Transcript {
    this.settle(true);
    this.settleFormat();
    this.lateFacts();
    this.transcript.entries.trim(between);
    const transcript = this.untrimmed(summary);
    if (this.format !== undefined) decoderEnds.set(transcript, { format: this.format.name, state: this.decoder!.state() });
    return transcript;
  }

  /** The same with the store's spare room and id index kept, for entries still to be added (another thread's half). */
  untrimmed(summary: ReadSummary): Transcript {
    this.settle();
    this.decoder?.end?.();
    return Object.assign(this.transcript, { bom: summary.bom, bytes: summary.bytes, lines: summary.lines });
  }

  /**
   * A file that is one JSON document (see TranscriptFormat.readsWholeDocument): one record on
   * line 1, whatever lines it takes. A document needs no final line ending, so its last line counts as ended.
   * One that does not parse is `owner`'s, the format whose documents live where it does.
   */
  document(bytes: Buffer, summary: ReadSummary, owner?: TranscriptFormat): void {
    const start = summary.bom ? 3 : 0;
    const text = bytes.subarray(start);
    let value: unknown;
    try {
      value = JSON.parse(text.toString('utf8'));
    } catch (error) {
      this.issue('invalid-json', 1, `the file is not one JSON document: ${describeParseError(error, text.toString('utf8'))}`);
      this.transcript.lastLine = { line: summary.lines, eol: 'lf', parsed: false };
      if (this.format === undefined && owner !== undefined) this.adopt(owner);
      return;
    }
    this.counted(1, 'lf', isUtf8(text));
    this.accept(value, { number: 1, offset: start, byteLength: text.length });
  }

  readonly line = (raw: RawLine): void => this.read(raw, true);

  /** `latin1`: whether the line may be parsed from its bytes read as latin1, when the decoder takes such lines. */
  private read(raw: RawLine, latin1: boolean): void {
    if (raw.oversized) {
      this.settle();
      this.issue('oversized', raw.number, `line of ${raw.byteLength} bytes is too long to parse`);
      this.transcript.lastLine = { line: raw.number, eol: raw.eol, parsed: false };
      return;
    }
    const bytes = raw.bytes;
    // Blank lines are nothing, unless they may be part of a string cut by raw line breaks.
    if (this.held === undefined && isBlank(bytes)) return;
    const ascii = isAscii(bytes);
    // Not while lines are held: those are parsed again together, as UTF-8.
    latin1 &&= !ascii && this.held === undefined && this.decoder?.readsLatin1 === true && isUtf8(bytes);
    // The text parsed (bench/ceiling.mjs finds the parse by this name).
    let lineSource = lineText(bytes, ascii || latin1);
    if (latin1 && !readsAsLatin1(lineSource)) {
      latin1 = false;
      lineSource = lineText(bytes, false);
    }
    let value: unknown;
    try {
      value = JSON.parse(lineSource);
    } catch (error) {
      // It fails as UTF-8 too: that text's error, which quotes it, is the one told.
      if (latin1) return this.read(raw, false);
      const glued = gluedRecords(bytes, this.isRecord);
      if (glued === undefined) return this.hold(raw, undefined, error);
      this.settle();
      this.gluedLine(raw, glued);
      return;
    }
    if (this.held !== undefined) {
      if (!this.isRecord(value)) return this.hold(raw, value);
      this.settle();
    }
    this.parsed(raw, value, ascii || latin1, latin1);
  }

  /** Whether a parsed value can stand on a line of its own: the detected format's test, or any format's before one is. */
  private readonly isRecord = (value: unknown): boolean => (this.format === undefined ? isAnyRecord(value) : this.format.isRecord(value));

  private issue(kind: LineIssue['kind'], line: number, detail: string): LineIssue {
    const found: LineIssue = { kind, line, detail };
    this.transcript.lineIssues.push(found);
    return found;
  }

  /** `utf8`: the bytes are known to be UTF-8; `latin1`: they were parsed read as latin1. */
  private parsed(raw: Place & { bytes: Buffer; eol: RawLine['eol'] }, value: unknown, utf8 = false, latin1 = false): void {
    this.counted(raw.number, raw.eol, utf8 || isUtf8(raw.bytes));
    this.accept(value, raw, latin1);
  }

  /** Counts a parsed record whose last line is `line` (first line `first`), saying so when its bytes are not UTF-8. */
  private counted(line: number, eol: RawLine['eol'], validUtf8: boolean, first = line): void {
    if (!validUtf8) this.issue('invalid-utf8', first, 'invalid UTF-8 byte sequence');
    this.transcript.lastLine = { line, eol, parsed: true };
    this.transcript.parsedLines += 1;
  }

  private gluedLine(raw: RawLine, glued: NonNullable<ReturnType<typeof gluedRecords>>): void {
    this.issue('glued', raw.number, `${describeGlued(glued)}; repair puts each record on its own line`);
    this.counted(raw.number, raw.eol, isUtf8(raw.bytes));
    for (const record of glued.records) {
      this.accept(record.value, { number: raw.number, offset: raw.offset + record.start, byteLength: record.end - record.start });
    }
  }

  /** A line that does not parse as one record, kept until it is known whether the lines after it complete it. */
  private hold(raw: RawLine, value: unknown, error?: unknown): void {
    const held = (this.held ??= { lines: [], bytes: 0 });
    held.lines.push({ number: raw.number, offset: raw.offset, byteLength: raw.byteLength, eol: raw.eol, bytes: Buffer.from(raw.bytes), value, error });
    held.bytes += raw.byteLength;
    if (held.lines.length >= MAX_SPLIT_LINES || held.bytes >= MAX_SPLIT_BYTES) this.settle();
  }

  /** Held lines, in order: records they make together, and each of the others as it is. */
  private settle(atEnd = false): void {
    const held = this.held?.lines;
    if (held === undefined) return;
    this.held = undefined;
    const records = splitRecords(held, this.isRecord);
    if (records.length === 0 && atEnd && this.transcript.parsedLines === 0 && this.transcript.lineIssues.length === 0 && this.wholeDocument(held)) return;
    let next = 0;
    for (const record of records) {
      held.slice(next, record.first).forEach((line) => this.unjoined(line));
      const first = held[record.first]!;
      const last = held[record.last]!;
      const how = record.insideString ? ', cut by raw line breaks inside a string; repair joins them with the breaks escaped' : '; repair joins them onto one line';
      // A count, not line numbers: the second thread's numbers are shifted after the detail is written.
      this.issue('split', first.number, `one record is written across ${record.last - record.first + 1} lines${how}`).through = last.number;
      this.counted(last.number, last.eol, held.slice(record.first, record.last + 1).every((line) => isUtf8(line.bytes)), first.number);
      this.accept(record.value, { number: first.number, offset: first.offset, byteLength: last.offset + last.byteLength - first.offset });
      next = record.last + 1;
    }
    held.slice(next).forEach((line) => this.unjoined(line));
  }

  /**
   * A file whose held lines, all of it, parse together as one value that is no record: one
   * issue for the file, not one per line (a pretty-printed array would give thousands).
   */
  private wholeDocument(held: readonly HeldLine[]): boolean {
    if (held.length < 2) return false;
    let value: unknown;
    try {
      value = JSON.parse(held.map((line) => line.bytes.toString('utf8')).join('\n'));
    } catch {
      return false;
    }
    const first = held[0]!;
    const last = held.at(-1)!;
    const what = Array.isArray(value) ? `an array of ${value.length} value${value.length === 1 ? '' : 's'}` : value !== null && typeof value === 'object' ? 'an object' : 'a single value';
    this.issue('document', first.number, `${what} over ${last.number - first.number + 1} lines`).through = last.number;
    this.transcript.lastLine = { line: last.number, eol: last.eol, parsed: false };
    return true;
  }

  private unjoined(line: HeldLine): void {
    if (line.error === undefined) return this.parsed(line, line.value);
    const bytes = line.bytes;
    if (isBlank(bytes)) return;
    this.transcript.lastLine = { line: line.number, eol: line.eol, parsed: false };
    const text = bytes.toString('utf8');
    // Valid JSON never holds a raw NUL, so only a failed line is worth searching for one.
    const nul = countNul(bytes);
    const found =
      nul > 0
        ? this.issue('nul-bytes', line.number, `${nul} NUL byte(s) in a line of ${bytes.length} bytes`)
        : line.eol === 'none'
          ? this.issue('torn', line.number, `the line stops after ${bytes.length} bytes without a line ending`)
          : this.issue('invalid-json', line.number, describeParseError(line.error, text));
    const recovered = this.format?.recoverLinks(text);
    if (recovered !== undefined) found.recovered = recovered;
    if (!isUtf8(bytes) && nul === 0) this.issue('invalid-utf8', line.number, 'invalid UTF-8 byte sequence');
  }

  private accept(value: unknown, raw: Place & { bytes?: Buffer }, latin1 = false): void {
    if (this.decoder !== undefined) return this.add(value, raw, latin1);
    if (this.undetected === undefined) return;
    this.undetected.push({ value, raw: { number: raw.number, offset: raw.offset, byteLength: raw.byteLength } });
    const format = detectFormat(value);
    if (format !== undefined) this.adopt(format);
    else if (this.undetected.length >= MAX_UNDETECTED) {
      this.undetected = undefined; // give up: the file is not a transcript we know
    }
  }

  /** Decodes the lines kept so far, and every line after them, as `format`'s. */
  private adopt(format: TranscriptFormat): void {
    this.format = format;
    this.perLine = format.conversationOf !== undefined;
    this.decoder = format.createDecoder();
    this.transcript.format = format.name;
    this.transcript.semantics = format.semantics;
    for (const pending of this.undetected!) this.add(pending.value, pending.raw);
    this.undetected = undefined;
  }

  private lateFacts(): void {
    this.decoder?.end?.();
    if (this.format !== undefined) addLateFacts(this.format, this.transcript.entries);
  }

  /** A short file that parsed in part but whose lines no format calls its own: where it lives, or what its lines resemble, decides. */
  private settleFormat(): void {
    if (this.format !== undefined || this.undetected === undefined || this.undetected.length === 0) return;
    const format = likelyFormat(this.undetected.map((pending) => pending.value), this.path);
    if (format !== undefined) this.adopt(format);
  }

  private add(value: unknown, raw: Place & { bytes?: Buffer }, latin1 = false): void {
    if (this.perLine) return this.conversations?.(this.format!.conversationOf!(value), raw, this.format!);
    const entries = this.transcript.entries;
    const entry = this.decoder!.decode(value, raw.number, entries.length, latin1);
    entry.offset = raw.offset;
    entry.byteLength = raw.byteLength;
    entries.push(entry);
    // Calls, results and ids, in the proportion the first lines have them.
    if (entries.length === SAMPLE_ENTRIES && this.expected !== undefined) entries.reserve(this.expected);
  }
}

/**
 * What a format can tell only once the whole file is decoded (see TranscriptFormat.settle),
 * written into its entries; facts an earlier settling wrote (into entries copied from another
 * store) go first.
 */
export function addLateFacts(format: TranscriptFormat, entries: EntryStore): void {
  if (format.settle === undefined) return;
  for (const rare of entries.rare.values()) {
    delete rare.keptHistoryProblems;
    delete rare.wipesHistory;
    delete rare.placeholderTurns;
    delete rare.emptyTurns;
    delete rare.trailingResults;
    delete rare.model;
  }
  entries.clearSizes();
  for (const [index, facts] of format.settle(entries)) {
    if (facts.keptHistoryProblems !== undefined) entries.setRare(index, 'keptHistoryProblems', facts.keptHistoryProblems);
    if (facts.wipesHistory !== undefined) entries.setRare(index, 'wipesHistory', facts.wipesHistory);
    if (facts.placeholderTurns !== undefined) entries.setRare(index, 'placeholderTurns', facts.placeholderTurns);
    if (facts.emptyTurns !== undefined) entries.setRare(index, 'emptyTurns', facts.emptyTurns);
    if (facts.trailingResults !== undefined) entries.setRare(index, 'trailingResults', facts.trailingResults);
    if (facts.size !== undefined) entries.setSize(index, facts.size.parts, facts.size.usage, facts.size.model);
  }
}

function countLines(bytes: Buffer): number {
  let lines = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines;
}

/** Reads a source once, start to end, into a Transcript; `format` skips detection. */
export async function loadTranscript(source: Readable, format?: TranscriptFormat, conversations?: ConversationSink): Promise<Transcript> {
  const builder = new TranscriptBuilder(format, undefined, conversations);
  return builder.finish(await readLines(source, builder.line));
}

/** The same for a whole file already in memory; nothing refers to `bytes` once it returns. `path` is where it was read from. */
export function loadBytes(bytes: Buffer, format?: TranscriptFormat, conversations?: ConversationSink, path?: string): Transcript {
  const builder = new TranscriptBuilder(format, undefined, conversations).expectLines(countLines(bytes));
  if (path !== undefined) builder.from(path);
  const splitter = new LineSplitter(builder.line);
  splitter.push(bytes);
  return builder.finish(splitter.end());
}

/** A file that is one JSON document (see TranscriptBuilder.document); `format` skips detection. */
export function loadDocument(bytes: Buffer, format: TranscriptFormat | undefined, path: string, owner?: TranscriptFormat): Transcript {
  const summary = new LineSplitter(() => undefined);
  summary.push(bytes);
  const read = summary.end();
  const builder = new TranscriptBuilder(format).from(path);
  builder.document(bytes, read, owner);
  return builder.finish(read);
}
