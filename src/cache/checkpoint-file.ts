import { closeSync, constants, fstatSync, openSync as openPlain, readdirSync, readSync, statSync, unlinkSync, utimesSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { openSync } from '../io/named-fs.js';
import { READ_NOW } from '../io/regular-file.js';
import { reason } from '../errors.js';
import { version } from '../version.js';
import { ensureCacheDir, writeWhole } from './cache-file.js';
import { racy } from './file-stamp.js';
import { prefixHash } from './prefix-stamp.js';
import { cacheKey, entryId } from './cache-key.js';
import { packColumns, unpackColumns, type PayloadLayout } from './column-payload.js';

/**
 * Where the checkpoints of one setting live: the cache folder, and a key made of what can change
 * how a file decodes (the tool's version, `--agent`, the V8 that wrote the columns). Plain data:
 * it crosses to the threads that scan.
 */
export interface CheckpointPlace {
  dir: string;
  key: string;
}

/** A checkpoint found usable for a file as it is now: the bytes it was made from, and what was saved of them. */
export interface SavedCheckpoint {
  bytes: number;
  data: unknown;
}

const MAGIC = Buffer.from('transcript-doctor checkpoint 3\n');
const PREFIX = 'checkpoint-';
/** Checkpoints kept in one folder, and the bytes they may take together; the least recently used go first. Tests and scripts raise the count. */
const MAX_CHECKPOINTS = Number(process.env.TRANSCRIPT_DOCTOR_MAX_CHECKPOINTS ?? 64);
const MAX_TOTAL_BYTES = 1 << 30;
/** A header longer than this is no header of ours. */
const MAX_HEADER_BYTES = 1 << 16;

/** zlib.crc32 came with Node 20.15: without it no checkpoint is made or read. */
const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

const align8 = (offset: number): number => Math.ceil(offset / 8) * 8;
export const checkpointsWork = crc32 !== undefined;

interface Header {
  tool: string;
  key: string;
  dev: string;
  ino: string;
  bytes: number;
  prefix: string;
  payload: number;
  crc: number;
  layout: PayloadLayout;
}

export function checkpointPlace(dir: string, format: string | undefined): CheckpointPlace {
  return { dir, key: cacheKey({ checkpoint: 1, format, v8: process.versions.v8 }) };
}

function fileName(place: CheckpointPlace, path: string): string {
  return `${PREFIX}${place.key.slice(0, 12)}-${entryId(path)}.bin`;
}

let warned = false;

/** One warning a thread, as the verdict cache gives one a run: the checkpoint is not used, the file is read whole. */
function warn(why: string): void {
  if (warned) return;
  warned = true;
  process.stderr.write(`transcript-doctor: warning: ${why}; reading the file whole\n`);
}

/**
 * The checkpoint of `path`, when it fits the file as it is now: the same file (device, inode),
 * longer than the checkpoint's bytes, and those bytes unchanged as far as prefixHash tells.
 * Undefined otherwise, and for a checkpoint that is corrupt, truncated, of another version or not
 * a regular file (one warning).
 */
export function readCheckpoint(place: CheckpointPlace, path: string): SavedCheckpoint | undefined {
  const file = join(place.dir, fileName(place, path));
  let fd: number;
  try {
    fd = openPlain(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') warn(`the checkpoint ${file} cannot be read (${reason(error)})`);
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return void warn(`the checkpoint ${file} is not a regular file`);
    const read = readHeader(fd, info.size);
    if (read === undefined) return void warn(`the checkpoint ${file} is corrupt or of another version`);
    const { header, at } = read;
    if (header.tool !== version || header.key !== place.key) return undefined;
    if (!fitsFile(header, path)) return undefined;
    if (info.size !== at + header.payload) return void warn(`the checkpoint ${file} is truncated`);
    // Its own buffer, so that the columns' offsets (multiples of 8) are aligned in it.
    const payload = Buffer.allocUnsafeSlow(header.payload);
    if (readFully(fd, payload, at) !== payload.length) return void warn(`the checkpoint ${file} is truncated`);
    if (crc32!(payload) !== header.crc) return void warn(`the checkpoint ${file} is corrupt`);
    const data = unpackColumns(payload, header.layout);
    touch(file);
    return { bytes: header.bytes, data };
  } catch (error) {
    return void warn(`the checkpoint ${file} cannot be read (${reason(error)})`);
  } finally {
    closeSync(fd);
  }
}

/** Whether the file at `path` is the one the checkpoint was made from, grown past it and unchanged up to it. */
function fitsFile(header: Header, path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, READ_NOW);
  } catch {
    return false;
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    if (!info.isFile() || String(info.dev) !== header.dev || String(info.ino) !== header.ino || info.size <= BigInt(header.bytes)) return false;
    return prefixHash(fd, header.bytes) === header.prefix;
  } finally {
    closeSync(fd);
  }
}

/** The header, and where the payload starts; undefined for a file that does not start as ours does. */
function readHeader(fd: number, size: number): { header: Header; at: number } | undefined {
  const start = Buffer.alloc(MAGIC.length + 4);
  if (size < start.length || readFully(fd, start, 0) !== start.length || !start.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const length = start.readUInt32LE(MAGIC.length);
  if (length > MAX_HEADER_BYTES || start.length + length > size) return undefined;
  const text = Buffer.alloc(length);
  readFully(fd, text, start.length);
  try {
    const header = JSON.parse(text.toString('utf8')) as Partial<Header>;
    const strings = [header.tool, header.key, header.dev, header.ino, header.prefix].every((value) => typeof value === 'string');
    const numbers = [header.bytes, header.payload, header.crc].every((value) => Number.isSafeInteger(value) && (value as number) >= 0);
    const layout = typeof header.layout === 'object' && header.layout !== null && Array.isArray(header.layout.columns) && Array.isArray(header.layout.skeleton);
    return strings && numbers && layout ? { header: header as Header, at: align8(start.length + length) } : undefined;
  } catch {
    return undefined;
  }
}

function readFully(fd: number, into: Buffer, at: number): number {
  let read = 0;
  while (read < into.length) {
    const got = readSync(fd, into, read, into.length - read, at + read);
    if (got === 0) break;
    read += got;
  }
  return read;
}

/**
 * Saves what `data` gives (the model of the first `bytes` bytes of `path`) as the file's checkpoint, when
 * the file is still as `before` (its stat taken before it was read) says and those are all its
 * bytes: a file written to while it was read, or so recently that a write could hide in the same
 * tick of the file clock (see racy), is not checkpointed. Whether it was written; never throws: a
 * checkpoint that cannot be written is one warning.
 */
export function writeCheckpoint(place: CheckpointPlace, path: string, bytes: number, before: BigIntStats, data: () => unknown): boolean {
  let fd: number;
  try {
    fd = openSync(path, READ_NOW);
  } catch {
    return false;
  }
  let header: Header;
  try {
    const now = fstatSync(fd, { bigint: true });
    const same = now.dev === before.dev && now.ino === before.ino && now.size === before.size && now.mtimeNs === before.mtimeNs && now.ctimeNs === before.ctimeNs;
    if (!same || now.size !== BigInt(bytes) || racy({ mtimeNs: String(now.mtimeNs), ctimeNs: String(now.ctimeNs) }, BigInt(Date.now()) * 1_000_000n)) return false;
    const prefix = prefixHash(fd, bytes);
    if (prefix === undefined) return false;
    header = { tool: version, key: place.key, dev: String(now.dev), ino: String(now.ino), bytes, prefix, payload: 0, crc: 0, layout: { columns: [], skeleton: [0, 0] } };
  } finally {
    closeSync(fd);
  }
  try {
    const problem = ensureCacheDir(place.dir);
    if (problem !== undefined) {
      warn(`the cache folder ${place.dir} is ${problem}`);
      return false;
    }
    const { parts, layout } = packColumns(data());
    header.layout = layout;
    header.payload = parts.reduce((sum, part) => sum + part.length, 0);
    header.crc = parts.reduce((crc, part) => crc32!(part, crc), 0);
    const text = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(text.length, 0);
    const start = MAGIC.length + 4 + text.length;
    writeWhole(place.dir, fileName(place, path), [MAGIC, length, text, Buffer.alloc(align8(start) - start), ...parts]);
    prune(place.dir);
    return true;
  } catch (error) {
    warn(`a checkpoint cannot be written in ${place.dir} (${reason(error)})`);
    return false;
  }
}

/**
 * Removes the checkpoint of `path`, if there is one: a file read whole that leaves no new one
 * (edited so that it no longer qualifies, or written to as it was read) must not be read on from
 * the old one once it grows, whose prefix hash the edit may not have touched.
 */
export function dropCheckpoint(place: CheckpointPlace, path: string): void {
  try {
    unlinkSync(join(place.dir, fileName(place, path)));
  } catch {
    // None, or another run removed it.
  }
}

/** A checkpoint used is as good as new: the least recently used go first (see prune). */
function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Another run removed it: this one read it whole.
  }
}

/** A temp file this old was left by a run that was killed as it wrote (a write takes well under a second a GiB). */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Keeps at most MAX_CHECKPOINTS checkpoints and MAX_TOTAL_BYTES of them in the folder, the most
 * recently used, and removes the temp files of writes that never finished.
 */
function prune(dir: string): void {
  const now = Date.now();
  const found = readdirSync(dir).flatMap((name) => {
    if (name.startsWith(`.${PREFIX}`) && name.endsWith('.tmp')) {
      try {
        if (now - statSync(join(dir, name)).mtimeMs > STALE_TEMP_MS) unlinkSync(join(dir, name));
      } catch {
        // Renamed or removed meanwhile.
      }
      return [];
    }
    if (!name.startsWith(PREFIX)) return [];
    try {
      const info = statSync(join(dir, name));
      return info.isFile() ? [{ name, used: info.mtimeMs, size: info.size }] : [];
    } catch {
      return [];
    }
  });
  let total = 0;
  for (const [k, { name, size }] of found.sort((a, b) => b.used - a.used).entries()) {
    total += size;
    if (k < MAX_CHECKPOINTS && total <= MAX_TOTAL_BYTES) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Another run removed it first.
    }
  }
}
