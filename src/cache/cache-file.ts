import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { reason } from '../errors.js';
import type { Finding } from '../pipeline/finding.js';
import type { SizeSummary } from '../pipeline/size-summary.js';
import type { FileStamp } from './file-stamp.js';

/** Bumped when what a cache file holds changes shape: a file of another shape is ignored. */
export const CACHE_FORMAT = 1;
/**
 * One set of settings' verdicts are spread over 16 files (shards) by the first hex digit of the
 * entry id, so a look-up reads one small file, not every verdict ever kept: guard, checking one
 * session, pays for that session's shard only. Files remembered in one shard; the least recently
 * used go first.
 */
export const MAX_ENTRIES = 4_096;
/** What one shard holds at most, in bytes of JSON; the least recently used go first. */
export const MAX_SHARD_BYTES = 4 << 20;
/**
 * A verdict longer than this (some 500 findings) is not kept: reading it back would cost about
 * what checking its file again does, and would crowd out hundreds of others.
 */
export const MAX_VERDICT_BYTES = 256 << 10;
/** Sets of settings kept in the folder; the least recently written go first. */
export const MAX_FILES = 16;
/** Larger than a shard can be written: something else. */
const MAX_FILE_BYTES = 2 * MAX_SHARD_BYTES;
const PREFIX = 'verdicts-';
const SHARD_NAME = /^verdicts-([0-9a-f]+)-[0-9a-f]\.json$/;

/**
 * What is remembered of one file: its stamp, when the entry was last used (ms), and its verdict.
 * No transcript text: a verdict is the format name, findings (rule, severity, line, JSON Pointer
 * and a message made of the rule's words, ids, tool and model names, counts: see docs/cache.md),
 * the size summary (counts, tool and model names), or guard's one line about the file.
 */
export interface CacheEntry {
  stamp: FileStamp;
  used: number;
  verdict: CachedVerdict;
}

export interface CachedVerdict {
  format: string | null;
  findings?: Finding[];
  size?: SizeSummary;
  /** guard's line about the session (undefined: clean). */
  outcome?: string;
}

export interface CacheDocument {
  transcriptDoctorCache: number;
  tool: string;
  key: string;
  entries: Record<string, CacheEntry>;
}

/** The file of the settings `key` that holds the entry `id` (a hex hash: see entryId). */
export function cacheFileName(key: string, id: string): string {
  return `${PREFIX}${key.slice(0, 24)}-${shardOf(id)}.json`;
}

function shardOf(id: string): string {
  const digit = id[0] ?? '0';
  return /[0-9a-f]/.test(digit) ? digit : '0';
}

/** What reading a cache file gave: its entries, none yet, or why it cannot be used (and whether it may be replaced). */
export type ReadOutcome = { entries: Map<string, CacheEntry> } | { missing: true } | { unusable: string; replaceable: boolean };

/** Reads and checks a cache file, without following a symbolic link or opening anything but a regular file. */
export function readCacheFile(path: string, tool: string, key: string): ReadOutcome {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { missing: true };
    return { unusable: `cannot be read: ${reason(error)}`, replaceable: false };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { unusable: 'not a regular file', replaceable: false };
    if (info.size > MAX_FILE_BYTES) return { unusable: 'too large to be a cache file', replaceable: true };
    const bytes = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return parseDocument(bytes.toString('utf8', 0, read), tool, key);
  } catch (error) {
    return { unusable: `cannot be read: ${reason(error)}`, replaceable: false };
  } finally {
    closeSync(fd);
  }
}

function parseDocument(text: string, tool: string, key: string): ReadOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unusable: 'corrupt or truncated', replaceable: true };
  }
  const document = value as Partial<CacheDocument> | null;
  if (typeof document !== 'object' || document === null || document.transcriptDoctorCache !== CACHE_FORMAT) return { unusable: 'not a cache file of this version', replaceable: true };
  if (document.tool !== tool) return { unusable: `written by transcript-doctor ${String(document.tool)}`, replaceable: true };
  if (document.key !== key) return { unusable: 'written for other settings', replaceable: true };
  if (typeof document.entries !== 'object' || document.entries === null) return { unusable: 'corrupt', replaceable: true };
  const entries = new Map<string, CacheEntry>();
  for (const [name, entry] of Object.entries(document.entries)) {
    if (!isEntry(entry)) return { unusable: 'corrupt', replaceable: true };
    entries.set(name, entry);
  }
  return { entries };
}

const STAMP_FIELDS = ['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs', 'ends'] as const;

function isEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<CacheEntry>;
  const stamp = entry.stamp as Record<string, unknown> | undefined;
  return (
    typeof stamp === 'object' &&
    stamp !== null &&
    // Strings are enough: a stamp is only compared with a fresh one, and anything else there differs from it.
    STAMP_FIELDS.every((field) => typeof stamp[field] === 'string') &&
    typeof entry.used === 'number' &&
    isVerdict(entry.verdict)
  );
}

function isVerdict(value: unknown): value is CachedVerdict {
  if (typeof value !== 'object' || value === null) return false;
  const verdict = value as Partial<CachedVerdict>;
  return (
    (verdict.format === null || typeof verdict.format === 'string') &&
    (verdict.findings === undefined || (Array.isArray(verdict.findings) && verdict.findings.every(isFinding))) &&
    (verdict.size === undefined || (typeof verdict.size === 'object' && verdict.size !== null)) &&
    (verdict.outcome === undefined || typeof verdict.outcome === 'string')
  );
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

function isFinding(value: unknown): value is Finding {
  if (typeof value !== 'object' || value === null) return false;
  const finding = value as Partial<Finding>;
  return (
    typeof finding.rule === 'string' &&
    SEVERITIES.has(finding.severity as string) &&
    Number.isInteger(finding.line) &&
    typeof finding.pointer === 'string' &&
    typeof finding.message === 'string' &&
    (finding.providerError === undefined || typeof finding.providerError === 'string') &&
    (finding.healedBy === undefined || (typeof finding.healedBy === 'object' && finding.healedBy !== null))
  );
}

/**
 * Writes a cache file whole: a temp file (mode 0600) beside it, renamed over it, so a reader
 * sees the old file or the new one, never part of one. The most recently used entries are kept,
 * up to MAX_ENTRIES and MAX_SHARD_BYTES, and none longer than MAX_VERDICT_BYTES.
 */
export function writeCacheFile(dir: string, name: string, tool: string, key: string, entries: Map<string, CacheEntry>): void {
  const head = JSON.stringify({ transcriptDoctorCache: CACHE_FORMAT, tool, key, entries: {} }).slice(0, -3);
  const kept: string[] = [];
  let bytes = head.length + 3;
  for (const [id, entry] of [...entries].sort((a, b) => b[1].used - a[1].used)) {
    if (kept.length === MAX_ENTRIES) break;
    const member = `${JSON.stringify(id)}:${JSON.stringify(entry)}`;
    const size = Buffer.byteLength(member);
    if (size > MAX_VERDICT_BYTES) continue;
    if (bytes + size + 1 > MAX_SHARD_BYTES) break;
    kept.push(member);
    bytes += size + 1;
  }
  writeWhole(dir, name, [Buffer.from(`${head}{${kept.join(',')}}}`)]);
}

/** Writes `parts` as the file `name` in `dir`: a temp file (mode 0600) beside it, renamed over it, so a reader sees the old file or the new one. */
export function writeWhole(dir: string, name: string, parts: readonly Uint8Array[]): void {
  const temp = join(dir, `.${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    try {
      for (const bytes of parts) for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, join(dir, name));
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes the files of every set of settings but the MAX_FILES most recently written, and any of an older layout (one file a set: never read again). */
export function pruneCacheFiles(dir: string): void {
  const groups = new Map<string, { names: string[]; mtime: number }>();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PREFIX) || !name.endsWith('.json')) continue;
    if (!SHARD_NAME.test(name)) {
      removeQuietly(join(dir, name));
      continue;
    }
    let mtime: number;
    try {
      mtime = statSync(join(dir, name)).mtimeMs;
    } catch {
      continue;
    }
    const settings = SHARD_NAME.exec(name)![1]!;
    const group = groups.get(settings) ?? { names: [], mtime: 0 };
    group.names.push(name);
    group.mtime = Math.max(group.mtime, mtime);
    groups.set(settings, group);
  }
  if (groups.size <= MAX_FILES) return;
  for (const { names } of [...groups.values()].sort((a, b) => b.mtime - a.mtime).slice(MAX_FILES)) for (const name of names) removeQuietly(join(dir, name));
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Another run removed it first.
  }
}

/** Makes the cache folder when missing (mode 0700, as its parents); why it cannot hold the cache, when it cannot. */
export function ensureCacheDir(dir: string): string | undefined {
  try {
    if (lstatSync(dir, { throwIfNoEntry: false }) === undefined) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return statSync(dir).isDirectory() ? undefined : 'not a folder';
  } catch (error) {
    return `cannot be made: ${reason(error)}`;
  }
}
