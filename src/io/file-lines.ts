import { open } from './named-fs.js';
import { LineSplitter, type RawLine, type ReadSummary } from './line-reader.js';
import { READ_NOW } from './regular-file.js';

const CHUNK_BYTES = 1 << 20;

export interface FileRange {
  /** First byte to read. */
  start?: number;
  /** Byte to stop before; the end of the file when absent. */
  end?: number;
  /** Awaited after each chunk's lines (see readLines). */
  afterChunk?: () => Promise<void>;
}

/**
 * Reads a file's lines through two buffers it reuses, the next read running while the
 * current chunk is split. A stream would allocate a fresh chunk per read: garbage that piles
 * up to tens of megabytes between collections on a gigabyte file. Offsets count from `start`.
 */
export async function readFileLines(path: string, onLine: (line: RawLine) => void, range: FileRange = {}): Promise<ReadSummary> {
  const { start = 0, end = Number.POSITIVE_INFINITY, afterChunk } = range;
  // Not blocking: a path swapped for a FIFO since it was checked fails instead of hanging.
  const file = await open(path, READ_NOW);
  try {
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)] as const;
    const splitter = new LineSplitter(onLine, undefined, { reusedChunks: true, midFile: start > 0 });
    let position = start;
    let turn = 0;
    const readNext = () => {
      const buffer = buffers[turn]!;
      turn ^= 1;
      return position < end ? file.read(buffer, 0, Math.min(CHUNK_BYTES, end - position), position) : Promise.resolve({ bytesRead: 0, buffer });
    };
    let reading = readNext();
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      position += bytesRead;
      reading = readNext();
      splitter.push(buffer.subarray(0, bytesRead));
      await afterChunk?.();
    }
    const summary = splitter.end();
    await afterChunk?.();
    return summary;
  } finally {
    await file.close();
  }
}
