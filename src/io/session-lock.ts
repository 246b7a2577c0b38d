import { readFile, realpath } from 'node:fs/promises';
import { codeOf } from '../errors.js';

/** A live process holding a session's write lock. */
export interface LiveLock {
  pid: number;
  /** The lock file that names it. */
  lockPath: string;
}

/**
 * The live process that holds `<file>.lock`, OpenClaw's session write lock, if any. The lock of the
 * real file counts (a session reached through a symlink is locked under its own name), and so does
 * one beside the path as given. A lock whose pid is dead or unreadable holds nothing.
 */
export async function liveLock(file: string): Promise<LiveLock | undefined> {
  const real = await realpath(file).catch(() => file);
  for (const path of real === file ? [file] : [real, file]) {
    const lockPath = `${path}.lock`;
    const text = await readFile(lockPath, 'utf8').catch(() => undefined);
    const pid = text === undefined ? undefined : lockPid(text);
    if (pid !== undefined && isAlive(pid)) return { pid, lockPath };
  }
  return undefined;
}

/**
 * The pid a lock names. OpenClaw writes `{"pid":123,"createdAt":"…"}` (later with `maxHoldMs`,
 * `starttime`); other writers put the pid in a string, or write the bare number.
 */
export function lockPid(text: string): number | undefined {
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // a bare pid, possibly with a newline
  }
  const pid = typeof value === 'object' && value !== null ? (value as { pid?: unknown }).pid : value;
  const number = typeof pid === 'string' && /^\s*\d+\s*$/.test(pid) ? Number(pid) : pid;
  // kill(0) and kill(-n) signal whole process groups, which would always look alive.
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** EPERM means the process exists but belongs to someone else. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}
