import { readFileSync, rmSync } from 'node:fs';
import { codeOf, reason, UserError } from '../errors.js';
import { fsName } from './byte-names.js';
import { assertNotLocked, lockPaths, lockPid } from './lock.js';
import { lstat, open, rm } from './named-fs.js';

/** A session's write lock, held by this process until released. */
export interface WriteLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes the lock a live writer of `session` holds, in OpenClaw's convention (the one every
 * command here honours): `<real path>.lock`, created exclusively, holding `{pid, createdAt}`.
 * Refused with a UserError while another live process holds a lock on the session; a lock left
 * by a dead process (a writer killed with SIGKILL) is taken over. Released on exit too, so only
 * a kill leaves it behind, and a kill's lock names a dead pid, which blocks nobody.
 */
export async function takeWriteLock(session: string): Promise<WriteLock> {
  const path = (await lockPaths(session))[0]!;
  const body = `${JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() })}\n`;
  for (let attempt = 0; ; attempt++) {
    await assertNotLocked(session, false);
    try {
      const handle = await open(path, 'wx', 0o644);
      try {
        await handle.writeFile(body);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST' || attempt === 2) throw new UserError(`cannot lock ${session} (${path}): ${reason(error)}`);
      await removeStale(path);
    }
  }
  const releaseOnExit = () => removeIfOurs(path);
  process.on('exit', releaseOnExit);
  return {
    path,
    async release() {
      process.off('exit', releaseOnExit);
      removeIfOurs(path);
    },
  };
}

/** A lock nobody alive holds (assertNotLocked said so a moment ago); only a regular file is ever removed. */
async function removeStale(path: string): Promise<void> {
  const found = await lstat(path).catch(() => undefined);
  if (found === undefined) return;
  if (!found.isFile()) throw new UserError(`${path} is not a lock file (${found.isDirectory() ? 'a folder' : 'not a regular file'}); look at it and remove it`);
  await rm(path, { force: true });
}

/** Synchronous, for the exit handler: a lock another process has taken over since is left alone. */
function removeIfOurs(path: string): void {
  try {
    if (lockPid(readFileSync(fsName(path), 'utf8')) === process.pid) rmSync(fsName(path), { force: true });
  } catch {
    // Gone already, or unreadable: nothing of ours to remove.
  }
}
