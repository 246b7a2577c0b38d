import { basename, dirname, join } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';
import { lstat, readdir, rm } from './named-fs.js';

/** `2026-11-26T10-05-00-123Z`: an ISO time with `-` for `:` and `.`, so it is a valid file name everywhere. */
const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/;

/**
 * How many backups of a session an in-place write keeps when neither `--keep-backups` nor the
 * config's "keepBackups" says: one full copy each, so five repairs of a 50 MB session cost 150 MB,
 * not 250 MB and growing, and the last three writes can still be undone.
 */
export const DEFAULT_KEEP_BACKUPS = 3;

/** The copy an in-place write keeps of what it replaces: `<file>.bak-<time>`. */
export function backupPathFor(destination: string, at: Date = new Date()): string {
  return `${destination}.bak-${at.toISOString().replace(/[:.]/g, '-')}`;
}

export interface Backup {
  /** The file name, e.g. `s.jsonl.bak-2026-11-26T10-05-00-123Z`. */
  name: string;
  path: string;
  size: number;
  mode: number;
  /** When it was made, from its name. */
  time: Date;
}

/**
 * The backups kept beside `destination` (the real path of a session, which need not exist any
 * more), newest first. Only regular files count: a link or a FIFO under a backup's name is not a
 * copy anything here made.
 */
export async function listBackups(destination: string): Promise<Backup[]> {
  const folder = dirname(destination);
  const prefix = `${basename(destination)}.bak-`;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    throw new UserError(`cannot read ${folder}: ${reason(error)}`);
  }
  const backups: Backup[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const time = stampTime(name.slice(prefix.length));
    if (time === undefined) continue;
    const path = join(folder, name);
    const found = await lstat(path).catch((error: unknown) => {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw new UserError(`cannot read ${path}: ${reason(error)}`);
    });
    if (found?.isFile()) backups.push({ name, path, size: found.size, mode: found.mode & 0o7777, time });
  }
  // The stamp is fixed-width, so the names sort as the times do.
  return backups.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

function stampTime(stamp: string): Date | undefined {
  const parts = STAMP.exec(stamp);
  if (parts === null) return undefined;
  const time = new Date(`${parts[1]}T${parts[2]}:${parts[3]}:${parts[4]}.${parts[5]}Z`);
  return Number.isNaN(time.getTime()) ? undefined : time;
}

/**
 * After an in-place write that kept `made`: remove the backups of `destination` past the newest
 * `keep`, `made` always among those kept, since it is what `restore` puts back to undo that write
 * (even when a clock set back gives it an older stamp than the others). Called only once the write
 * has succeeded; a backup that cannot be removed stays, as the write is done either way. The paths removed.
 */
export async function pruneBackups(destination: string, made: string, keep: number): Promise<string[]> {
  const backups = await listBackups(destination).catch(() => []);
  const older = backups.filter((backup) => backup.path !== made).slice(Math.max(0, keep - 1));
  const removed: string[] = [];
  for (const backup of older) {
    if (await rm(backup.path).then(() => true, () => false)) removed.push(backup.path);
  }
  return removed;
}
