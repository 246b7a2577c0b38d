import type { IsRecord } from './glued-records.js';
import type { LineEnding } from './line-reader.js';

/** A physical line as the reader cut it. */
export interface PhysicalLine {
  bytes: Buffer;
  eol: LineEnding;
}

/** One record written over physical lines `first`…`last` (indexes into the lines given). */
export interface SplitRecord {
  first: number;
  last: number;
  value: unknown;
  /** The record on one line. */
  bytes: Buffer;
  /** Some line break sat inside a string (a writer that did not escape it), not between tokens. */
  insideString: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const SPACE = new Set([0x20, 0x09, 0x0d, 0x0a]);
const SHORT_ESCAPES: Record<number, string> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r' };

/** How far one record may reach: a tool result holding a long file is thousands of lines. */
export const MAX_SPLIT_LINES = 20_000;
export const MAX_SPLIT_BYTES = 64 * 1024 * 1024;

/**
 * Lines joined into one: a line break inside a string (and any other raw control character
 * there) becomes its escape, so the string keeps its text; a break between tokens (a
 * pretty-printed record) goes. Every other byte is kept as it was.
 */
export function joinLines(lines: readonly PhysicalLine[]): { bytes: Buffer; insideString: boolean } {
  const out: Buffer[] = [];
  let inString = false;
  let escaped = false;
  let insideString = false;
  const escape = (code: number) => Buffer.from(SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`);
  lines.forEach((line, index) => {
    const bytes = line.bytes;
    let copied = 0;
    for (let at = 0; at < bytes.length; at++) {
      const b = bytes[at]!;
      if (escaped) escaped = false;
      else if (!inString) inString = b === QUOTE;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) inString = false;
      else if (b < 0x20) {
        out.push(bytes.subarray(copied, at), escape(b));
        copied = at + 1;
      }
    }
    out.push(bytes.subarray(copied));
    if (index === lines.length - 1 || !inString) return;
    insideString = true;
    if (line.eol === 'crlf') out.push(escape(0x0d));
    out.push(escape(0x0a));
  });
  return { bytes: Buffer.concat(out), insideString };
}

/**
 * The records that broken lines make once joined: a line that opens an object and does not
 * close it, continued by the lines after it until the object closes at a line's end. The
 * joined bytes must parse as a value the format takes for a line of its own; otherwise the
 * lines stay as they are. `budget` bounds the bytes looked at, so a long run of garbage costs
 * a few passes over it, not one per line.
 */
export function splitRecords(lines: readonly PhysicalLine[], isRecord: IsRecord, budget = 4 * total(lines) + 1024 * 1024): SplitRecord[] {
  const found: SplitRecord[] = [];
  for (let first = 0; first < lines.length && budget > 0; first++) {
    const last = closingLine(lines, first);
    budget -= last.scanned;
    if (last.at === undefined) continue;
    const span = lines.slice(first, last.at + 1);
    const joined = joinLines(span);
    let value: unknown;
    try {
      value = JSON.parse(joined.bytes.toString('utf8'));
    } catch {
      continue;
    }
    if (!isRecord(value)) continue;
    found.push({ first, last: last.at, value, bytes: joined.bytes, insideString: joined.insideString });
    first = last.at;
  }
  return found;
}

/** The later line at whose end the object opened by `lines[first]` closes, if it does, and the bytes looked at. */
function closingLine(lines: readonly PhysicalLine[], first: number): { at?: number; scanned: number } {
  const opening = lines[first]!.bytes;
  let start = 0;
  while (start < opening.length && SPACE.has(opening[start]!)) start += 1;
  if (opening[start] !== 0x7b) return { scanned: 0 };
  let depth = 0;
  let inString = false;
  let escaped = false;
  let scanned = 0;
  for (let k = first; k < lines.length && k - first < MAX_SPLIT_LINES && scanned < MAX_SPLIT_BYTES; k++) {
    const bytes = lines[k]!.bytes;
    for (let at = k === first ? start : 0; at < bytes.length; at++) {
      const b = bytes[at]!;
      if (escaped) escaped = false;
      else if (inString) {
        if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (OPEN.has(b)) depth += 1;
      else if (CLOSE.has(b) && --depth <= 0) {
        scanned += at;
        // Closed on its own line (broken some other way), or with more after it: not a record cut by line breaks.
        const rest = bytes.subarray(at + 1);
        return { at: k > first && rest.every((byte) => SPACE.has(byte)) ? k : undefined, scanned };
      }
    }
    scanned += bytes.length + 1;
    if (lines[k]!.eol === 'none') break;
  }
  return { scanned };
}

function total(lines: readonly PhysicalLine[]): number {
  return lines.reduce((sum, line) => sum + line.bytes.length + 1, 0);
}

/**
 * Follows a later read of a file through the records an earlier read found written over several
 * lines (`spans`: first line → last line): their lines are gathered and given back as one.
 */
export class SplitJoiner {
  private parts: PhysicalLine[] | undefined;
  private first = 0;
  private through = 0;

  constructor(private readonly spans: ReadonlyMap<number, number>) {}

  /** Undefined for a line outside every split record, null for a part of one, the record on one line at its last. */
  take(number: number, bytes: Buffer, eol: LineEnding): { first: number; bytes: Buffer } | null | undefined {
    if (this.parts === undefined) {
      const through = this.spans.get(number);
      if (through === undefined) return undefined;
      this.parts = [];
      this.first = number;
      this.through = through;
    }
    // The reader reuses its buffers: a part is copied until the record is whole.
    this.parts.push({ bytes: Buffer.from(bytes), eol });
    if (number < this.through) return null;
    const joined = joinLines(this.parts).bytes;
    this.parts = undefined;
    return { first: this.first, bytes: joined };
  }
}

/** The JSON text of a record read back by its byte range: one written over several lines comes back joined. */
export function recordText(bytes: Buffer): string {
  if (bytes.indexOf(0x0a) === -1) return bytes.toString('utf8');
  const lines: PhysicalLine[] = [];
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
    const crlf = at > start && bytes[at - 1] === 0x0d;
    lines.push({ bytes: bytes.subarray(start, crlf ? at - 1 : at), eol: crlf ? 'crlf' : 'lf' });
    start = at + 1;
  }
  lines.push({ bytes: bytes.subarray(start), eol: 'none' });
  return joinLines(lines).bytes.toString('utf8');
}
