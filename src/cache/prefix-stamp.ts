import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';

/** Bytes hashed at the start of a checked prefix, and just before its end (where an agent last wrote). */
const EDGE_BYTES = 64 * 1024;
/** Blocks sampled evenly between them: an edit in the middle that keeps the edges is still likely seen. */
const SAMPLES = 32;
const SAMPLE_BYTES = 4096;

/**
 * A hash of the first `bytes` bytes of an open file, read in places: its first and last 64 KiB
 * and 32 blocks of 4 KiB spread between them (about 390 KiB, whatever the size). What tells that
 * the part of a file a checkpoint was made from is still there, unchanged, before what was appended.
 * Undefined when the file is shorter than `bytes`.
 */
export function prefixHash(fd: number, bytes: number): string | undefined {
  const hash = createHash('sha256');
  const block = Buffer.allocUnsafe(EDGE_BYTES);
  const take = (at: number, length: number): boolean => {
    const read = readSync(fd, block, 0, length, at);
    hash.update(block.subarray(0, read));
    return read === length;
  };
  const head = Math.min(EDGE_BYTES, bytes);
  if (!take(0, head)) return undefined;
  if (bytes > 2 * EDGE_BYTES) {
    const span = bytes - 2 * EDGE_BYTES - SAMPLE_BYTES;
    for (let k = 0; k < SAMPLES && span > 0; k++) if (!take(EDGE_BYTES + Math.floor((span * k) / (SAMPLES - 1)), SAMPLE_BYTES)) return undefined;
  }
  if (bytes > head && !take(Math.max(head, bytes - EDGE_BYTES), bytes - Math.max(head, bytes - EDGE_BYTES))) return undefined;
  return hash.update(String(bytes)).digest('hex').slice(0, 32);
}
