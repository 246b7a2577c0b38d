import { constants } from 'node:fs';
import { dirname } from 'node:path';
import { copyFile, open, rename, rm } from './named-fs.js';
import { tempPathFor } from './stale-temps.js';

/**
 * Linux copies a write into the page cache a page at a time and grows the file after each page,
 * so a reader can see the first part of a write that crosses a page boundary and not the rest.
 * This makes a multi-page append all-or-nothing for readers: a copy of `path` (a reflink where
 * the filesystem has them) gets `bytes`, is fsynced, and is renamed over `path`. It costs a copy
 * of the file. Killed on the way, it leaves `path` as it was and a temp file the next writer in
 * the folder sweeps (stale-temps.ts). `path` must be the real path (no symlink) and locked.
 */
export async function appendByCopy(path: string, bytes: Buffer): Promise<void> {
  const temp = tempPathFor(path, 'tmp');
  try {
    await copyFile(path, temp, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    const handle = await open(temp, 'a');
    try {
      for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync().catch(() => undefined);
  } finally {
    await folder.close();
  }
}
