import { open } from './named-fs.js';
import { LineSplitter, type RawLine, type ReadSummary } from './line-reader.js';
import { READ_NOW } from './regular-file.js';

const CHUNK_BYTES = 1 << 20;

export interface FileRange {
  /** First byte to read. */
  start?: number;
  /** Byte to stop before; the end of the file when absent. `afterChunk` may move it, either way. */
  end?: number;
  /**
   * Awaited after each chunk's lines (see readLines), with the offset the bytes handed out so far
   * reach to (a line cut there is still held back). Moving `end` from here to that offset or
   * beyond takes effect from the next chunk on.
   */
  afterChunk?: (reached: number) => Promise<void>;
}

/**
 * Reads a file's lines through two buffers it reuses, the next read running while the
 * current chunk is split. A stream would allocate a fresh chunk per read: garbage that piles
 * up to tens of megabytes between collections on a gigabyte file. Offsets count from `start`.
 */
export async function readFileLines(path: string, onLine: (line: RawLine) => void, range: FileRange = {}): Promise<ReadSummary> {
  const { start = 0, afterChunk } = range;
  const end = () => range.end ?? Number.POSITIVE_INFINITY;
  // Not blocking: a path swapped for a FIFO since it was checked fails instead of hanging.
  const file = await open(path, READ_NOW);
  try {
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)] as const;
    const splitter = new LineSplitter(onLine, undefined, { reusedChunks: true, midFile: start > 0 });
    let position = start;
    let turn = 0;
    // No read once the end is reached: afterChunk may still move it further.
    const readNext = () => {
      if (position >= end()) return undefined;
      const buffer = buffers[turn]!;
      turn ^= 1;
      return file.read(buffer, 0, Math.min(CHUNK_BYTES, end() - position), position);
    };
    let reading = readNext();
    while (reading !== undefined) {
      const { bytesRead, buffer } = await reading;
      // The end may have come closer while this read was under way.
      const taken = Math.min(bytesRead, end() - position);
      if (taken <= 0) break;
      position += taken;
      reading = readNext();
      splitter.push(buffer.subarray(0, taken));
      await afterChunk?.(position);
      reading ??= readNext();
    }
    const summary = splitter.end();
    await afterChunk?.(position);
    return summary;
  } finally {
    await file.close();
  }
}
