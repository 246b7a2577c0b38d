import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openSync } from '../io/named-fs.js';
import { READ_NOW } from '../io/regular-file.js';

/** Bytes hashed at each end of a file: an edit there that keeps size and times is still seen. */
const END_BYTES = 4096;

/**
 * What tells that a file is the one a verdict was given for: which file it is (device, inode),
 * its size and its modification and change times in nanoseconds, and a hash of its first and
 * last bytes. Numbers are decimal strings: bigint values as JSON writes them.
 */
export interface FileStamp {
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  ends: string;
}

/**
 * How a file is known again: by `metadata` (identity, size, times and the hash of its ends: a
 * stat and two small reads) or by `content` (its size and the hash of every byte, for a CI
 * checkout, where every run makes new files of the same bytes: ESLint's --cache-strategy).
 */
export type CacheStrategy = 'metadata' | 'content';

const CHUNK_BYTES = 1 << 20;

/** Where a stamp's two ends are read, reused: a buffer of 4 KiB or more is an allocation of its own each time. */
const ends = Buffer.allocUnsafe(2 * END_BYTES);

/** crypto.hash (Node 20.12) hashes a small buffer without making a Hash object. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;
const sha256 = (data: Uint8Array): string => (oneShot !== undefined ? oneShot('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex'));

/** A file changed less than this before it was stamped is not remembered (see racy); tests shorten it. */
export const RACY_MS = Number(process.env.TRANSCRIPT_DOCTOR_CACHE_RACY_MS ?? 2000);

/** The stamp of a regular file and when it was taken (ns, the clock file times use); undefined for anything else or a file that cannot be opened. */
export function stampFile(path: string, strategy: CacheStrategy = 'metadata'): { stamp: FileStamp; takenNs: bigint } | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_NOW);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    if (!info.isFile()) return undefined;
    const takenNs = BigInt(Date.now()) * 1_000_000n;
    const size = Number(info.size);
    if (strategy === 'content') return { stamp: { dev: '0', ino: '0', size: String(info.size), mtimeNs: '0', ctimeNs: '0', ends: contentHash(fd) }, takenNs };
    // Both ends in one buffer, hashed at once: a warm scan of thousands of files stamps each.
    const head = Math.min(END_BYTES, size);
    let read = readSync(fd, ends, 0, head, 0);
    if (size > END_BYTES) {
      const tail = Math.min(END_BYTES, size - END_BYTES);
      read += readSync(fd, ends, read, tail, size - tail);
    }
    const stamp: FileStamp = {
      dev: String(info.dev),
      ino: String(info.ino),
      size: String(info.size),
      mtimeNs: String(info.mtimeNs),
      ctimeNs: String(info.ctimeNs),
      ends: sha256(ends.subarray(0, read)).slice(0, 32),
    };
    return { stamp, takenNs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function contentHash(fd: number): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let at = 0; ; ) {
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, at);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    at += read;
  }
  return hash.digest('hex');
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ends === b.ends;
}

/**
 * File times advance by the kernel's coarse clock (a few ms), and by whole seconds on some file
 * systems: a write just after the stamp, in the same tick, could keep every time the same. A file
 * changed this close to the moment it was stamped is not remembered (git's "racy" index
 * entries). The window is `coarseNs` (2 s) for times in whole seconds; times with a fraction of a
 * second come from a file system that keeps them, whose clock ticks every few milliseconds, and
 * `fineNs` (50 ms) is many ticks of it: an agent that wrote its session as it exited is then
 * remembered when guard checks the session after it.
 */
export function racy(stamp: Pick<FileStamp, 'mtimeNs' | 'ctimeNs'>, takenNs: bigint, windows: RacyWindows = RACY_WINDOWS): boolean {
  // A content stamp holds no times: the bytes hashed are the bytes read.
  if (stamp.mtimeNs === '0' && stamp.ctimeNs === '0') return false;
  const mtime = BigInt(stamp.mtimeNs);
  const ctime = BigInt(stamp.ctimeNs);
  const fine = mtime % SECOND_NS !== 0n || ctime % SECOND_NS !== 0n;
  return takenNs - (mtime > ctime ? mtime : ctime) < (fine ? windows.fineNs : windows.coarseNs);
}

const SECOND_NS = 1_000_000_000n;

export interface RacyWindows {
  coarseNs: bigint;
  fineNs: bigint;
}

/** The same window for both (a test's, or a caller's that wants a longer one). */
export function racyWindows(ms: number): RacyWindows {
  const ns = BigInt(ms) * 1_000_000n;
  return { coarseNs: ns, fineNs: ns };
}

export const RACY_WINDOWS: RacyWindows = { coarseNs: BigInt(RACY_MS) * 1_000_000n, fineNs: BigInt(Math.min(RACY_MS, 50)) * 1_000_000n };
