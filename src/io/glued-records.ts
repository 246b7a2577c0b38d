/** A run of bytes inside a line: one JSON record, or bytes between records that are not one. */
export interface Piece {
  start: number;
  end: number;
  /** Starts like a record (an object or array); a parser decides whether it is one. */
  record: boolean;
}

/** Whether a parsed value can stand on a line of its own (the format's record opening, see TranscriptFormat.isRecord). */
export type IsRecord = (value: unknown) => boolean;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN = new Set([OPEN_BRACE, 0x5b]);
const CLOSE = new Set([CLOSE_BRACE, 0x5d]);
const SPACE = new Set([0x20, 0x09, 0x0d, 0x0a]);

/**
 * Cuts a line into top-level JSON values by bracket depth, outside strings. A lost newline glues
 * two appends together (`…}}{"type":…`); this finds where each one ends without parsing, in one
 * linear pass. Whitespace between pieces belongs to none; anything else outside a value is a
 * non-record piece running up to the next opening bracket.
 */
export function pieces(bytes: Uint8Array): Piece[] {
  const found: Piece[] = [];
  let at = 0;
  while (at < bytes.length) {
    const byte = bytes[at]!;
    if (SPACE.has(byte)) {
      at += 1;
      continue;
    }
    const start = at;
    if (!OPEN.has(byte)) {
      while (at < bytes.length && !OPEN.has(bytes[at]!)) at += 1;
      let end = at;
      while (end > start && SPACE.has(bytes[end - 1]!)) end -= 1;
      found.push({ start, end, record: false });
      continue;
    }
    let depth = 0;
    let inString = false;
    for (; at < bytes.length; at++) {
      const b = bytes[at]!;
      if (inString) {
        if (b === BACKSLASH) at += 1;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (OPEN.has(b)) depth += 1;
      else if (CLOSE.has(b) && --depth === 0) {
        at += 1;
        break;
      }
    }
    found.push({ start, end: at, record: true });
  }
  return found;
}

/**
 * Where the object that ends at `end` (exclusive, at a closing brace) opens, counting brackets
 * right to left; -1 when it does not open at or after `from`. From the end of a complete value
 * the scan starts outside any string, and a quote is a string's edge unless an odd run of
 * backslashes precedes it, so the count is exact however broken the bytes before the value are.
 */
export function objectStart(bytes: Uint8Array, from: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let at = end - 1; at >= from; at--) {
    const b = bytes[at]!;
    if (b === QUOTE) {
      let backslashes = 0;
      while (at - 1 - backslashes >= from && bytes[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
      if (backslashes % 2 === 0) inString = !inString;
    } else if (inString) continue;
    else if (CLOSE.has(b)) depth += 1;
    else if (OPEN.has(b) && --depth === 0) return b === OPEN_BRACE ? at : -1;
  }
  return -1;
}

export interface GluedRecord {
  value: unknown;
  start: number;
  end: number;
}

/**
 * The records a line that failed to parse still holds: `{…}{…}` gives both, `{…}junk` the first,
 * and a torn append with the next append written onto it (`{"type":"mess{…}`) the complete one
 * after the tear. Records are read from the left while they parse; from the first piece that does
 * not, they are read from the right, where a torn prefix cannot hide them. Only values the format
 * takes for a line of its own count, so a fragment of a broken line (`"arguments": "{}"`) is never
 * taken for a record. Undefined for a line that holds none; `unreadable` counts the lost pieces.
 */
export function gluedRecords(bytes: Buffer, isRecord: IsRecord): { records: GluedRecord[]; unreadable: number } | undefined {
  const records: GluedRecord[] = [];
  let unreadable = 0;
  for (const piece of pieces(bytes)) {
    const record = piece.record ? parsedRecord(bytes, piece.start, piece.end, isRecord) : undefined;
    if (record !== undefined) {
      records.push(record);
      continue;
    }
    const fromRight = recordsFromRight(bytes, piece.start, isRecord);
    records.push(...fromRight.records);
    unreadable = fromRight.end > piece.start ? 1 : 0;
    break;
  }
  return records.length === 0 ? undefined : { records, unreadable };
}

/** Complete records at the end of bytes[from…]; `end` is where the bytes before them stop. */
function recordsFromRight(bytes: Buffer, from: number, isRecord: IsRecord): { records: GluedRecord[]; end: number } {
  const records: GluedRecord[] = [];
  let end = bytes.length;
  for (;;) {
    while (end > from && SPACE.has(bytes[end - 1]!)) end -= 1;
    if (end <= from || bytes[end - 1] !== CLOSE_BRACE) break;
    const start = objectStart(bytes, from, end);
    const record = start === -1 ? undefined : parsedRecord(bytes, start, end, isRecord);
    if (record === undefined) break;
    records.unshift(record);
    end = start;
  }
  return { records, end };
}

function parsedRecord(bytes: Buffer, start: number, end: number, isRecord: IsRecord): GluedRecord | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
    return isRecord(value) ? { value, start, end } : undefined;
  } catch {
    return undefined;
  }
}
