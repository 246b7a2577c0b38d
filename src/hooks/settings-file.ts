import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';
import { lstat, mkdir, realpath, rm, stat } from '../io/named-fs.js';
import { AtomicFile, stampOf, type SourceStamp } from '../io/safe-write.js';

/** Larger than any settings file an agent writes; a bigger one is not one. */
const MAX_BYTES = 4 << 20;

export interface SettingsText {
  /** Undefined when the file does not exist. */
  text: string | undefined;
  stamp?: SourceStamp;
  /** The name is a symlink: the agent reads the file it points to, which is edited and the link kept. */
  link?: boolean;
}

/**
 * A settings file's text, or undefined when there is none. A symlink to a regular file is read
 * through, as the agents read it; anything else is refused: a dangling link (writing would replace
 * the link), a folder or a device, text that is not UTF-8 (its bytes could not be kept).
 */
export async function readSettings(path: string): Promise<SettingsText> {
  let link;
  try {
    link = (await lstat(path)).isSymbolicLink();
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { text: undefined };
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
  let found;
  try {
    found = await stat(path);
  } catch (error) {
    if (link && codeOf(error) === 'ENOENT') throw new UserError(`${path} is a symlink to a file that does not exist; nothing was changed`);
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
  const what = link ? `${path} is a symlink to ${await realpath(path).catch(() => 'something')}, which` : path;
  if (!found.isFile()) throw new UserError(`${what} is not a regular file; nothing was changed`);
  if (found.size > MAX_BYTES) throw new UserError(`${what} is ${found.size} bytes, too large to be a settings file; nothing was changed`);
  const stamp = await stampOf(path);
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
  try {
    return { text: UTF8.decode(bytes), stamp, ...(link ? { link } : {}) };
  } catch {
    throw new UserError(`${path} is not UTF-8 text; nothing was changed`);
  }
}

/** Fatal, and keeping a byte order mark: the text written back must be the bytes read. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
  // A file that was not there when it was read must still not be there (another install made it, or a link).
  const stillAbsent = async () => {
    if (await lstat(path).then(() => true, () => false)) throw new UserError(`${path} appeared while it was being edited; nothing was written`);
  };
  return file.commit({ backup: read.text !== undefined, expected: read.stamp, ...(read.text === undefined ? { lastCheck: stillAbsent } : {}) });
}

async function assertUnchanged(path: string, stamp: SourceStamp): Promise<void> {
  const now = await stampOf(path);
  if (now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs || now.ino !== stamp.ino) {
    throw new UserError(`${path} changed while it was being edited; nothing was written`);
  }
}
