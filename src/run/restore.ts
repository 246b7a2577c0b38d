import { basename, dirname, join, resolve } from 'node:path';
import { clipped, codeOf, reason, UserError } from '../errors.js';
import { listBackups, type Backup } from '../io/backups.js';
import { assertNotLocked } from '../io/lock.js';
import { createReadStream, lstat, realpath } from '../io/named-fs.js';
import { AtomicFile, beginInPlace } from '../io/safe-write.js';

/** A session to restore: the path as named, and where its file (and so its backups) really live. */
export interface RestoreTarget {
  path: string;
  /** Symlinks resolved: in-place writes replace the real file and keep their backups beside it. */
  destination: string;
  /** False when the file is gone (deleted, or lost): its backups can still bring it back. */
  exists: boolean;
}

/**
 * The one place `restore` turns what it was given into a session file. Today a path; session ids
 * (a full id, a unique prefix, `latest`) are to be resolved here too.
 */
export async function restoreTarget(argument: string): Promise<RestoreTarget> {
  if (argument === '' || argument === '-') throw new UserError('restore needs the path of a session file; standard input has no backups');
  const given = resolve(argument);
  const found = await lstat(given).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw new UserError(`cannot read ${argument}: ${reason(error)}`);
  });
  if (found === undefined) {
    // Deleted: its backups are still beside where it was.
    const destination = join(await realpath(dirname(given)).catch(() => dirname(given)), basename(given));
    return { path: argument, destination, exists: false };
  }
  const destination = await realpath(given).catch(() => {
    throw new UserError(`${argument} is a link to a file that does not exist; restore the file it points to`);
  });
  const real = await lstat(destination);
  if (real.isDirectory()) throw new UserError(`${argument} is a folder; restore puts back one session file`);
  if (!real.isFile()) throw new UserError(`${argument} is not a regular file`);
  return { path: argument, destination, exists: true };
}

/** The target's backups, newest first; none is an error, since there is nothing to show or put back. */
export async function backupsOf(target: RestoreTarget): Promise<Backup[]> {
  const backups = await listBackups(target.destination);
  if (backups.length === 0) throw new UserError(`no backups of ${target.path} (none named ${basename(target.destination)}.bak-<time> in ${dirname(target.destination)})`);
  return backups;
}

/** `--backup`: a backup's file name, its time stamp alone, or its path. Default: the newest. */
export function chooseBackup(backups: readonly Backup[], wanted: string | undefined): Backup {
  if (wanted === undefined) return backups[0]!;
  const name = basename(wanted);
  const chosen = backups.find((backup) => backup.name === name || backup.name.endsWith(`.bak-${name}`));
  if (chosen !== undefined) return chosen;
  const known = backups.slice(0, 3).map((backup) => backup.name).join(', ');
  throw new UserError(`no backup named "${clipped(wanted)}"; there are ${backups.length}: ${known}${backups.length > 3 ? ', …' : ''} (--list shows them all)`);
}

export interface RestoreOptions {
  force?: boolean;
}

/**
 * Puts `backup` back as the target: refused while a live agent holds the session's lock, written
 * to a temp file and renamed over the target (as repair --in-place writes), after keeping the
 * file it replaces as a backup of its own. A missing target is simply written again.
 */
export async function restoreBackup(target: RestoreTarget, backup: Backup, options: RestoreOptions = {}): Promise<{ backupPath?: string }> {
  const force = options.force ?? false;
  const expected = target.exists ? await beginInPlace(target.destination, force) : (await assertNotLocked(target.destination, force), undefined);
  const file = await AtomicFile.create(target.destination, { followLinks: true, mode: target.exists ? undefined : backup.mode });
  try {
    for await (const chunk of createReadStream(backup.path)) await file.write(chunk as Buffer);
  } catch (error) {
    await file.discard();
    throw error instanceof UserError ? error : new UserError(`cannot read ${backup.path}: ${reason(error)}`);
  }
  return file.commit({
    // What is replaced is kept, so a restore can be undone in turn.
    backup: target.exists,
    expected,
    lastCheck: async () => {
      await assertNotLocked(target.destination, force);
      if (!target.exists && (await lstat(target.destination).then(() => true, () => false))) {
        throw new UserError(`${target.path} appeared while it was being restored; nothing was changed (run restore again to replace it)`);
      }
    },
  });
}
