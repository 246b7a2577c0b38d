import { constants } from 'node:buffer';
import type { Readable } from 'node:stream';

/** How a physical line ended. `none` only happens on the final line of a file. */
export type LineEnding = 'lf' | 'crlf' | 'none';

export interface RawLine {
  /** 1-based line number. */
  number: number;
  /** Byte offset of the first byte of the line (after a BOM on line 1). */
  offset: number;
  /** Line content without its line ending. Only valid during the callback. */
  bytes: Buffer;
  /** Byte length of the content; equals bytes.length unless `oversized`. */
  byteLength: number;
  eol: LineEnding;
  /** Too long to turn into a string; `bytes` is empty and the content was discarded. */
  oversized: boolean;
}

export interface ReadSummary {
  bom: boolean;
  bytes: number;
  lines: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Largest line we keep; V8 cannot hold a longer string, so JSON.parse could never see it. */
const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Streams a source line by line without holding more than the current line in memory.
 * Lines inside one chunk are handed out as views (no copy); only lines that span chunks
 * are assembled. The callback is synchronous so per-line cost stays a function call.
 */
export async function readLines(
  source: Readable,
  onLine: (line: RawLine) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
  /** Awaited after each chunk's lines: lets a consumer write out what it produced, with backpressure. */
  afterChunk?: () => Promise<void>,
): Promise<ReadSummary> {
  let lineNumber = 0;
  let position = 0; // bytes consumed so far
  let lineStart = 0; // offset of the pending line
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let bom = false;
  let first = true;

  const emit = (content: Buffer, length: number, eol: LineEnding): void => {
    let bytes = content;
    let byteLength = length;
    if (eol === 'lf' && byteLength > 0 && !oversized && bytes[bytes.length - 1] === CR) {
      bytes = bytes.subarray(0, bytes.length - 1);
      byteLength -= 1;
      eol = 'crlf';
    }
    lineNumber += 1;
    onLine({ number: lineNumber, offset: lineStart, bytes: oversized ? Buffer.alloc(0) : bytes, byteLength, eol, oversized });
    oversized = false;
  };

  const hold = (piece: Buffer): void => {
    pendingBytes += piece.length;
    if (oversized) return;
    if (pendingBytes > maxLineBytes) {
      oversized = true;
      pending = [];
      return;
    }
    pending.push(piece);
  };

  for await (const data of source) {
    let chunk: Buffer = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
    if (first) {
      first = false;
      if (chunk.length >= 3 && chunk.subarray(0, 3).equals(BOM)) {
        bom = true;
        chunk = chunk.subarray(3);
        position = 3;
        lineStart = 3;
      }
    }
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        hold(chunk.subarray(start));
        break;
      }
      const piece = chunk.subarray(start, nl);
      if (pendingBytes === 0) {
        emit(piece, piece.length, 'lf');
      } else {
        hold(piece);
        const whole = oversized ? Buffer.alloc(0) : Buffer.concat(pending, pendingBytes);
        emit(whole, pendingBytes, 'lf');
        pending = [];
        pendingBytes = 0;
      }
      lineStart = position + nl + 1;
      start = nl + 1;
    }
    position += chunk.length;
    if (afterChunk !== undefined) await afterChunk();
  }
  if (pendingBytes > 0) {
    const whole = oversized ? Buffer.alloc(0) : Buffer.concat(pending, pendingBytes);
    emit(whole, pendingBytes, 'none');
    if (afterChunk !== undefined) await afterChunk();
  }
  return { bom, bytes: position, lines: lineNumber };
}
