import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';
import { mkdir, rm, stat } from '../io/named-fs.js';
import { AtomicFile, stampOf, type SourceStamp } from '../io/safe-write.js';

/** Larger than any settings file an agent writes; a bigger one is not one. */
const MAX_BYTES = 4 << 20;

export interface SettingsText {
  /** Undefined when the file does not exist. */
  text: string | undefined;
  stamp?: SourceStamp;
}

/** A settings file's text, or undefined when there is none; anything but a regular file is refused. */
export async function readSettings(path: string): Promise<SettingsText> {
  let found;
  try {
    found = await stat(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { text: undefined };
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
  if (!found.isFile()) throw new UserError(`${path} is not a regular file; nothing was changed`);
  if (found.size > MAX_BYTES) throw new UserError(`${path} is ${found.size} bytes, too large to be a settings file; nothing was changed`);
  const stamp = await stampOf(path);
  try {
    return { text: await readFile(path, 'utf8'), stamp };
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
}

/**
 * Writes `after` over the settings file as `repair --in-place` writes a session: a temp file in
 * the same folder, fsync, rename, the mode kept, a `.bak-<timestamp>` copy of what was there,
 * refused if the file changed since it was read. `after` undefined removes a file that holds
 * nothing but what install put there (no backup: nothing of the user's is in it).
 */
export async function writeSettings(path: string, read: SettingsText, after: string | undefined): Promise<{ backupPath?: string }> {
  if (after === undefined) {
    if (read.stamp !== undefined) await assertUnchanged(path, read.stamp);
    await rm(path, { force: true }).catch((error: unknown) => {
      throw new UserError(`cannot remove ${path}: ${reason(error)}`);
    });
    return {};
  }
  if (read.text === undefined) {
    await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
      throw new UserError(`cannot create ${dirname(path)}: ${reason(error)}`);
    });
  }
  const file = await AtomicFile.create(path);
  try {
    await file.write(after);
  } catch (error) {
    await file.discard();
    throw error;
  }
  return file.commit({ backup: read.text !== undefined, expected: read.stamp });
}

async function assertUnchanged(path: string, stamp: SourceStamp): Promise<void> {
  const now = await stampOf(path);
  if (now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs || now.ino !== stamp.ino) {
    throw new UserError(`${path} changed while it was being edited; nothing was written`);
  }
}
