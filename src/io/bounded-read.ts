import { closeSync, readSync } from 'node:fs';
import { reason } from '../errors.js';
import { NotRegularFileError, openRegularSync } from './regular-file.js';

/**
 * How big each file read beside the transcripts may be. Each is far above what the tool writes
 * (a lock is under 200 bytes, a config a few KB; reports and baselines grow with findings, 72 MB
 * for 200,000 files) and far below what would exhaust memory: V8 refuses strings over ~512 MB.
 */
export const LIMITS = {
  lock: 64 * 1024,
  config: 1024 * 1024,
  baseline: 256 * 1024 * 1024,
  report: 256 * 1024 * 1024,
  /** Instructions verify hands the judge (AGENTS.md, --rules files): each goes into a prompt. */
  instructions: 1024 * 1024,
} as const;

/** Thrown when a file is larger than its bound: the message says both sizes. */
export class TooLargeError extends Error {
  override name = 'TooLargeError';
}

/** A size in words: 64 KiB, 1 MiB, 256 MiB. */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/**
 * The whole of a regular file of at most `maxBytes`, as UTF-8 text without a leading BOM (an
 * editor on Windows adds one). Never opens a FIFO, device or socket (NotRegularFileError), never
 * reads past the bound, even when the file grows while it is read (TooLargeError).
 */
export function readBoundedText(path: string, maxBytes: number): string {
  const { fd, size } = openRegularSync(path);
  try {
    if (size > maxBytes) throw new TooLargeError(`${sizeInWords(size)}, more than the ${sizeInWords(maxBytes)} it may be`);
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) throw new TooLargeError(`more than the ${sizeInWords(maxBytes)} it may be`);
    return withoutBom(buffer.toString('utf8', 0, length));
  } finally {
    closeSync(fd);
  }
}

/** Why a side file cannot be read, in a few words: what it is, or how big, or the I/O error. */
export function readProblem(error: unknown): string {
  if (error instanceof NotRegularFileError) return `${error.kind}, not a regular file`;
  if (error instanceof TooLargeError) return error.message;
  return reason(error);
}

/** JSON files written by hand may start with a byte order mark, which JSON.parse refuses. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
