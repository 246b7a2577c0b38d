import { UserError } from '../errors.js';
import { open } from './named-fs.js';
import { READ_NOW } from './regular-file.js';

const CHUNK_BYTES = 4 << 20;

/** Bytes `start` to `end` of a file, to be written as `bytes` instead. */
export interface Splice {
  start: number;
  end: number;
  bytes: Uint8Array;
}

/**
 * The splices of a copy, in order: a list, or a function giving the splices that start before
 * `end` and were not given before (called with ends that only grow), so they can be worked out
 * while the bytes before them are being copied, and each is let go once it is written.
 */
export type Splices = readonly Splice[] | ((end: number) => readonly Splice[]);

/**
 * Writes a file's first `size` bytes with some spans replaced (in order, none overlapping), in
 * large chunks and without looking at the bytes between: a file whose few changed lines are made
 * already costs a copy. The next chunk is read while the last is written; a buffer is read into
 * again only once what was written from it is (a chunk with no span in it is written from it).
 * Splices given as a function are asked for the next chunk's while this one is read and written;
 * a splice written is dropped, so a copy that changes every line holds a chunk's worth, not the file's.
 */
export async function splicedCopy(path: string, size: number, given: Splices, write: (pieces: readonly Buffer[]) => Promise<void>, chunkBytes = CHUNK_BYTES): Promise<void> {
  // A list is given out as a function would give it: a chunk's splices at a time.
  let listed = 0;
  const more =
    typeof given === 'function'
      ? given
      : (end: number): readonly Splice[] => {
          const from = listed;
          while (listed < given.length && given[listed]!.start < end) listed += 1;
          return given.slice(from, listed);
        };
  const file = await open(path, READ_NOW);
  try {
    const buffers = [Buffer.allocUnsafe(Math.min(chunkBytes, size)), Buffer.allocUnsafe(Math.min(chunkBytes, size))];
    const read = async (turn: number, position: number): Promise<Buffer> => {
      const buffer = buffers[turn]!;
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) throw new UserError(`${path}: the file got shorter while it was read (${position} of ${size} bytes); nothing was written`);
      return buffer.subarray(0, bytesRead);
    };
    // The splices given and not yet done with; output is settled up to `at` (a span's end once its bytes are written); `emitted`: the place in `splices` of the last span written.
    const splices: Splice[] = [];
    const ask = (end: number): void => {
      for (const splice of more(end)) splices.push(splice);
    };
    let at = 0;
    let next = 0;
    let emitted = -1;
    let writing: Promise<void> = Promise.resolve();
    let reading = size > 0 ? read(0, 0) : undefined;
    ask(Math.min(chunkBytes, size));
    for (let position = 0, turn = 0; reading !== undefined; turn ^= 1) {
      const chunk = await reading;
      const end = position + chunk.length;
      await writing;
      reading = end < size ? read(turn ^ 1, end) : undefined;
      const pieces: Buffer[] = [];
      for (; next < splices.length && splices[next]!.start < end; next++) {
        const splice = splices[next]!;
        if (splice.start > at) pieces.push(chunk.subarray(at - position, splice.start - position));
        if (emitted !== next) pieces.push(bytesOf(splice));
        emitted = next;
        at = splice.end;
        // It runs on into the next chunk, which starts by skipping the rest of it.
        if (splice.end > end) break;
      }
      if (at < end) pieces.push(chunk.subarray(at - position, chunk.length));
      at = Math.max(at, end);
      // One write a chunk, its pieces as they are: a write per changed line would cost more, and so would copying them together.
      if (pieces.length > 0) {
        writing = write(pieces);
        // Handled here so a failure while the next chunk is read is not an unhandled rejection; the next await of it reports it.
        writing.catch(() => undefined);
      }
      // The spans done with go (the write holds its pieces); one running on into the next chunk stays.
      splices.splice(0, next);
      emitted -= next;
      next = 0;
      position = end;
      ask(Math.min(end + chunkBytes, size));
    }
    await writing;
    // Spans at the very end replace nothing: they are added.
    ask(Number.POSITIVE_INFINITY);
    const added = splices.slice(next).filter((_, k) => next + k !== emitted);
    if (added.length > 0) await write(added.map(bytesOf));
  } finally {
    await file.close();
  }
}

/** A splice's bytes as a Buffer over the same memory: written as they are, not copied. */
function bytesOf(splice: Splice): Buffer {
  return Buffer.from(splice.bytes.buffer, splice.bytes.byteOffset, splice.bytes.length);
}
