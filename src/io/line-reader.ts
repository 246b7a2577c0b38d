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
const EMPTY = Buffer.alloc(0);

/** Largest line we keep; V8 cannot hold a longer string, so JSON.parse could never see it. */
const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Cuts bytes into lines as they arrive, without holding more than the current line. Lines
 * inside one chunk are handed out as views (no copy); only lines that span chunks are
 * assembled. The callback is synchronous so per-line cost stays a function call.
 */
export class LineSplitter {
  private lineNumber = 0;
  private position = 0; // bytes consumed so far
  private lineStart = 0; // offset of the pending line
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private oversized = false;
  private bom = false;
  private first = true;

  constructor(
    private readonly onLine: (line: RawLine) => void,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
    /**
     * `reusedChunks`: the caller refills the chunks it pushes, so the part of a line a chunk ends
     * with is copied. `midFile`: the bytes start inside a file, where a byte order mark is a line's.
     */
    private readonly options: { reusedChunks?: boolean; midFile?: boolean } = {},
  ) {
    this.first = options.midFile !== true;
  }

  push(data: Buffer): void {
    let chunk = data;
    if (this.first) {
      this.first = false;
      if (chunk.length >= 3 && chunk.subarray(0, 3).equals(BOM)) {
        this.bom = true;
        chunk = chunk.subarray(3);
        this.position = 3;
        this.lineStart = 3;
      }
    }
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.hold(chunk.subarray(start));
        break;
      }
      const piece = chunk.subarray(start, nl);
      if (this.pendingBytes === 0) {
        this.emit(piece, piece.length, 'lf');
      } else {
        this.hold(piece);
        this.emitPending('lf');
      }
      this.lineStart = this.position + nl + 1;
      start = nl + 1;
    }
    this.position += chunk.length;
  }

  /** Hands out a last line that had no line ending; returns what was read. */
  end(): ReadSummary {
    if (this.pendingBytes > 0) this.emitPending('none');
    return { bom: this.bom, bytes: this.position, lines: this.lineNumber };
  }

  /** The line held in pieces, joined; the pieces are let go first so a long line is not held twice while it is parsed. */
  private emitPending(eol: LineEnding): void {
    const length = this.pendingBytes;
    const content = this.oversized ? EMPTY : Buffer.concat(this.pending, length);
    this.pending = [];
    this.pendingBytes = 0;
    this.emit(content, length, eol);
  }

  private emit(content: Buffer, length: number, eol: LineEnding): void {
    // A line inside one large chunk never went through hold(): it is measured here.
    const oversized = this.oversized || length > this.maxLineBytes;
    let bytes = oversized ? EMPTY : content;
    let byteLength = length;
    if (eol === 'lf' && !oversized && byteLength > 0 && bytes[bytes.length - 1] === CR) {
      bytes = bytes.subarray(0, bytes.length - 1);
      byteLength -= 1;
      eol = 'crlf';
    }
    this.lineNumber += 1;
    this.onLine({ number: this.lineNumber, offset: this.lineStart, bytes, byteLength, eol, oversized });
    this.oversized = false;
  }

  private hold(piece: Buffer): void {
    this.pendingBytes += piece.length;
    if (this.oversized) return;
    if (this.pendingBytes > this.maxLineBytes) {
      this.oversized = true;
      this.pending = [];
      return;
    }
    this.pending.push(this.options.reusedChunks === true ? Buffer.from(piece) : piece);
  }
}

/** Streams a source line by line (see LineSplitter). */
export async function readLines(
  source: Readable,
  onLine: (line: RawLine) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
  /** Awaited after each chunk's lines: lets a consumer write out what it produced, with backpressure. */
  afterChunk?: () => Promise<void>,
): Promise<ReadSummary> {
  const splitter = new LineSplitter(onLine, maxLineBytes);
  for await (const data of source) {
    splitter.push(typeof data === 'string' ? Buffer.from(data) : (data as Buffer));
    if (afterChunk !== undefined) await afterChunk();
  }
  const summary = splitter.end();
  await afterChunk?.();
  return summary;
}
