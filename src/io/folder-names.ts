import { constants } from 'node:fs';
import { codeOf } from '../errors.js';
import { copyFile, link, open, rm, stat } from './named-fs.js';

// The names an in-place write (safe-write.ts) adds to a folder around its rename, and the fsync
// that makes the rename last: a backup kept by hard link (or copy), a second name for the original.

/**
 * A hard link costs nothing and is the exact original (true); filesystems without links get a
 * copy with the same mode (false).
 */
export async function keepBackup(original: string, backupPath: string): Promise<boolean> {
  if (await linked(original, backupPath)) return true;
  try {
    await copyFile(original, backupPath, constants.COPYFILE_EXCL);
    const copy = await open(backupPath, 'r+');
    try {
      await copy.chmod((await stat(original)).mode & 0o7777);
      await copy.sync();
    } finally {
      await copy.close();
    }
    return false;
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') await rm(backupPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** false when the filesystem has no hard links; a name already taken is an error. */
export async function linked(existing: string, name: string): Promise<boolean> {
  try {
    await link(existing, name);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw error;
    return false;
  }
}

/** Makes the rename itself survive a crash, not only the new content. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
