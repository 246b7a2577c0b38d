import { realpath } from './named-fs.js';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { LIMITS, readBoundedText, TooLargeError } from './bounded-read.js';
import { isAlive } from './process-alive.js';

/** OpenClaw creates its lock file and then fills it; an empty lock is read again this often before it is believed. */
const EMPTY_LOCK_RETRIES = 5;
const EMPTY_LOCK_WAIT_MS = 20;

/**
 * Throws UserError (one line, names the pid and lock path) when a lock on `path` names a live
 * process, or is too big to be a lock an agent wrote, unless `force`. A lock whose pid is dead,
 * that holds no pid, or that is not a regular file (a FIFO, a device, a folder: OpenClaw writes
 * a regular file, so these are nobody's lock and are never opened) does not block.
 */
export async function assertNotLocked(path: string, force: boolean): Promise<void> {
  if (force) return;
  for (const lockPath of await lockPaths(path)) {
    const holder = await lockHolder(lockPath);
    if (holder === undefined) continue;
    if (typeof holder === 'number') {
      throw new UserError(`${path} is locked by running process ${holder} (${lockPath}); retry when it is idle, or use --force`);
    }
    throw new UserError(`${path}: its lock file ${lockPath} is ${holder.tooLarge}, so no agent wrote it; look at it and remove it, or use --force`);
  }
}

/** The live process holding a lock on `path` (a running agent writes this session), if any. */
export async function liveLock(path: string): Promise<{ pid: number; lockPath: string } | undefined> {
  for (const lockPath of await lockPaths(path)) {
    const pid = await lockHolder(lockPath);
    if (typeof pid === 'number') return { pid, lockPath };
  }
  return undefined;
}

/**
 * Every lock a writer of `path` may hold. OpenClaw locks `<realpath of the folder>/<name>.lock`;
 * through a symlink the live writer holds the lock beside the real file, and a lock beside the
 * name as given is honoured too.
 */
export async function lockPaths(path: string): Promise<string[]> {
  const given = resolve(path);
  const folder = await realpath(dirname(given)).catch(() => dirname(given));
  const real = await realpath(given).catch(() => join(folder, basename(given)));
  return [...new Set([`${real}.lock`, `${join(folder, basename(given))}.lock`, `${given}.lock`])];
}

/** The live pid a lock names; what makes it no lock at all when it is too big to read. */
async function lockHolder(lockPath: string): Promise<number | { tooLarge: string } | undefined> {
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = readBoundedText(lockPath, LIMITS.lock);
    } catch (error) {
      // Missing, unreadable or not a regular file: no agent holds it.
      return error instanceof TooLargeError ? { tooLarge: error.message } : undefined;
    }
    const pid = lockPid(text);
    if (pid !== undefined) return isAlive(pid) ? pid : undefined;
    if (text.trim() !== '' || attempt === EMPTY_LOCK_RETRIES) return undefined;
    await sleep(EMPTY_LOCK_WAIT_MS);
  }
}

/**
 * The pid a lock names, in every shape seen: OpenClaw's JSON `{"pid":123,…}` (pretty-printed in
 * later versions), a pid written as a string (`"123"`, with stray whitespace), or a bare pid file.
 */
export function lockPid(text: string): number | undefined {
  let value: unknown = text;
  try {
    const parsed: unknown = JSON.parse(text);
    value = typeof parsed === 'object' && parsed !== null ? (parsed as { pid?: unknown }).pid : parsed;
  } catch {
    // Not JSON: maybe a bare pid file.
  }
  const pid = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
  return pid !== undefined && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
