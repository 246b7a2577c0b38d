import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { isAlive } from './process-alive.js';

/** OpenClaw creates its lock file and then fills it; an empty lock is read again this often before it is believed. */
const EMPTY_LOCK_RETRIES = 5;
const EMPTY_LOCK_WAIT_MS = 20;

/**
 * Throws UserError (one line, names the pid and lock path) when a lock on `path` names a live
 * process, unless `force`. A lock whose pid is dead, or that holds no pid, does not block.
 */
export async function assertNotLocked(path: string, force: boolean): Promise<void> {
  if (force) return;
  const live = await liveLock(path);
  if (live !== undefined) {
    throw new UserError(`${path} is locked by running process ${live.pid} (${live.lockPath}); retry when it is idle, or use --force`);
  }
}

/** The live process holding a lock on `path` (a running agent writes this session), if any. */
export async function liveLock(path: string): Promise<{ pid: number; lockPath: string } | undefined> {
  for (const lockPath of await lockPaths(path)) {
    const pid = await lockHolder(lockPath);
    if (pid !== undefined) return { pid, lockPath };
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

async function lockHolder(lockPath: string): Promise<number | undefined> {
  for (let attempt = 0; ; attempt++) {
    const text = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
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
