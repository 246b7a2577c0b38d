import type { gluedRecords } from '../io/glued-records.js';

// What the loader (load-transcript.ts) says about a line it cannot take as it is: blank, glued
// records, NUL bytes, JSON that does not parse, in words a report can show.

const OPEN_BRACE = 0x7b;

/** An empty line, or one of spaces and tabs (a record always opens with a brace, checked first as the cheap test). */
export function isBlank(bytes: Buffer): boolean {
  return bytes.length === 0 || (bytes[0] !== OPEN_BRACE && isWhitespace(bytes));
}

function isWhitespace(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/** What a line of glued records holds, in words: whole records, and the torn or unreadable bytes repair drops. */
export function describeGlued({ records, unreadable }: NonNullable<ReturnType<typeof gluedRecords>>): string {
  const count = records.length;
  const noun = count === 1 ? 'record' : 'records';
  if (unreadable > 0 && records[0]!.start > 0) return `${count} complete ${noun} after a torn one that repair drops`;
  const held = count === 1 ? '1 record shares the line' : `${count} records are glued together on one line`;
  return unreadable === 0 ? held : `${held}${count === 1 ? ' with' : ', and'} ${unreadable} unreadable piece(s) that repair drops`;
}

/** NUL bytes in a line. */
export function countNul(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0); at !== -1; at = bytes.indexOf(0, at + 1)) count += 1;
  return count;
}

/** The parser's reason without the snippet of content V8 quotes (it may hold secrets). */
export function describeParseError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const trailing = /after JSON at position (\d+)/.exec(message);
  if (trailing !== null) {
    const rest = text.slice(Number(trailing[1]), Number(trailing[1]) + 64).trimStart();
    return rest.startsWith('{') ? 'two JSON records are glued together on one line' : 'unexpected data after the JSON value';
  }
  const reason = message
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/^Unexpected token '(.)'$/su, (_, token: string) => `unexpected character U+${token.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}
