/** A run of bytes inside a line: one JSON record, or bytes between records that are not one. */
export interface Piece {
  start: number;
  end: number;
  /** Starts like a record (an object or array); a parser decides whether it is one. */
  record: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
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

export interface GluedRecord {
  value: unknown;
  start: number;
  end: number;
}

/**
 * The records a line that failed to parse still holds, when it holds more than one piece and at
 * least one of them parses: `{…}{…}` gives both, `{…}junk` gives the first. Undefined for a line
 * that is one broken value. `unreadable` counts the pieces that are lost.
 */
export function gluedRecords(bytes: Buffer): { records: GluedRecord[]; unreadable: number } | undefined {
  const found = pieces(bytes);
  if (found.length < 2) return undefined;
  const records: GluedRecord[] = [];
  for (const piece of found) {
    if (!piece.record) continue;
    try {
      records.push({ value: JSON.parse(bytes.toString('utf8', piece.start, piece.end)), start: piece.start, end: piece.end });
    } catch {
      // an unreadable piece: counted below
    }
  }
  return records.length === 0 ? undefined : { records, unreadable: found.length - records.length };
}
