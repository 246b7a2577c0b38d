import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { reason } from '../errors.js';
import type { Finding } from '../pipeline/finding.js';
import type { SizeSummary } from '../pipeline/size-summary.js';
import type { FileStamp } from './file-stamp.js';

/** Bumped when what a cache file holds changes shape: a file of another shape is ignored. */
export const CACHE_FORMAT = 1;
/** Files remembered in one cache file; the least recently used go first. */
export const MAX_ENTRIES = 50_000;
/** Cache files (one per set of settings) kept in the folder; the least recently written go first. */
export const MAX_FILES = 16;
/** Larger than MAX_ENTRIES entries can be: something else. */
const MAX_FILE_BYTES = 64 << 20;
const PREFIX = 'verdicts-';

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

export function cacheFileName(key: string): string {
  return `${PREFIX}${key.slice(0, 24)}.json`;
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
    STAMP_FIELDS.every((field) => typeof stamp[field] === 'string' && /^[0-9a-f]+$/.test(stamp[field])) &&
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
 * sees the old file or the new one, never part of one. The least recently used entries beyond
 * MAX_ENTRIES are left out; then the oldest cache files beyond MAX_FILES are removed.
 */
export function writeCacheFile(dir: string, name: string, tool: string, key: string, entries: Map<string, CacheEntry>): void {
  const kept = [...entries].sort((a, b) => b[1].used - a[1].used).slice(0, MAX_ENTRIES);
  const document: CacheDocument = { transcriptDoctorCache: CACHE_FORMAT, tool, key, entries: Object.fromEntries(kept) };
  writeWhole(dir, name, [Buffer.from(JSON.stringify(document))]);
  pruneFiles(dir);
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

function pruneFiles(dir: string): void {
  const files = readdirSync(dir).filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'));
  if (files.length <= MAX_FILES) return;
  const dated = files.flatMap((name) => {
    try {
      return [{ name, mtime: statSync(join(dir, name)).mtimeMs }];
    } catch {
      return [];
    }
  });
  for (const { name } of dated.sort((a, b) => b.mtime - a.mtime).slice(MAX_FILES)) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Another run removed it first.
    }
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
