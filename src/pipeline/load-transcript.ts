import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { readLines, type RawLine } from '../io/line-reader.js';
import type { Decoder, TranscriptFormat } from '../formats/format.js';
import { detectFormat } from '../formats/registry.js';
import type { LineIssue, Transcript } from '../model/transcript.js';

/** Lines parsed before any format recognised the file; kept so they can be decoded once one does. */
const MAX_UNDETECTED = 16;

const OPEN_BRACE = 0x7b;

type Place = Pick<RawLine, 'number' | 'offset' | 'byteLength'>;

/**
 * Reads a source once and turns it into a Transcript: byte-level problems become line issues,
 * parsed lines become neutral entries through the detected format's decoder.
 */
export async function loadTranscript(source: Readable, formatHint?: TranscriptFormat): Promise<Transcript> {
  const transcript: Transcript = { entries: [], lineIssues: [], bom: false, bytes: 0, lines: 0, parsedLines: 0 };
  let format = formatHint;
  let decoder: Decoder | undefined = format?.createDecoder();
  let undetected: Array<{ value: unknown; raw: Place }> | undefined = [];

  const addEntry = (value: unknown, raw: Place): void => {
    const entries = transcript.entries;
    const entry = decoder!.decode(value, raw.number, entries.length);
    entry.offset = raw.offset;
    entry.byteLength = raw.byteLength;
    entries.push(entry);
  };

  const accept = (value: unknown, raw: Place): void => {
    if (decoder !== undefined) return addEntry(value, raw);
    if (undetected === undefined) return;
    undetected.push({ value, raw: { number: raw.number, offset: raw.offset, byteLength: raw.byteLength } });
    format = detectFormat(value);
    if (format !== undefined) {
      decoder = format.createDecoder();
      for (const pending of undetected) addEntry(pending.value, pending.raw);
      undetected = undefined;
    } else if (undetected.length >= MAX_UNDETECTED) {
      undetected = undefined; // give up: the file is not a transcript we know
    }
  };

  const onLine = (raw: RawLine): void => {
    const issue = (kind: LineIssue['kind'], detail: string): void => {
      transcript.lineIssues.push({ kind, line: raw.number, detail });
    };
    if (raw.oversized) {
      issue('oversized', `line of ${raw.byteLength} bytes is too long to parse`);
      transcript.lastLine = { line: raw.number, eol: raw.eol, parsed: false };
      return;
    }
    const bytes = raw.bytes;
    if (bytes.length === 0) return;
    if (bytes[0] !== OPEN_BRACE && isWhitespace(bytes)) return;
    transcript.lastLine = { line: raw.number, eol: raw.eol, parsed: false };
    const validUtf8 = isUtf8(bytes);
    const text = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // Valid JSON never holds a raw NUL, so only a failed line is worth searching for one.
      const nul = countNul(bytes);
      if (nul > 0) issue('nul-bytes', `${nul} NUL byte(s) in a line of ${bytes.length} bytes`);
      else if (raw.eol === 'none') issue('torn', `the line stops after ${bytes.length} bytes without a line ending`);
      else issue('invalid-json', describeParseError(error, text));
      const recovered = format?.recoverLinks(text);
      if (recovered !== undefined) transcript.lineIssues[transcript.lineIssues.length - 1]!.recovered = recovered;
      if (!validUtf8 && nul === 0) issue('invalid-utf8', 'invalid UTF-8 byte sequence');
      return;
    }
    if (!validUtf8) issue('invalid-utf8', 'invalid UTF-8 byte sequence');
    transcript.lastLine.parsed = true;
    transcript.parsedLines += 1;
    accept(value, raw);
  };

  const summary = await readLines(source, onLine);
  transcript.bom = summary.bom;
  transcript.bytes = summary.bytes;
  transcript.lines = summary.lines;
  transcript.format = format?.name;
  return transcript;
}

function isWhitespace(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function countNul(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0); at !== -1; at = bytes.indexOf(0, at + 1)) count += 1;
  return count;
}

/** The parser's reason without the snippet of content V8 quotes (it may hold secrets). */
function describeParseError(error: unknown, text: string): string {
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
