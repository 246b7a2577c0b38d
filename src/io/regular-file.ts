import { closeSync, constants, fstatSync, type Dirent, type Stats } from 'node:fs';
import { openSync, statSync } from './named-fs.js';
import { codeOf } from '../errors.js';
import { hasStrayBytes } from './byte-names.js';

/**
 * Read-only and non-blocking: opening a FIFO that has no writer blocks open(2) itself, so a
 * blocking open would hang before we could see what the path is. Regular files ignore the flag.
 */
export const READ_NOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path is, in words, when it is something that is neither a regular file nor a folder. */
export function specialKind(entry: Stats | Dirent | Dirent<Buffer>): string | undefined {
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  return undefined;
}

/** Why a transcript cannot be read from something that is not a regular file. */
export function notRegularReason(kind: string): string {
  return kind === 'a FIFO' ? `${kind}, not a regular file (to read a pipe, send it to standard input and pass -)` : `${kind}, not a regular file`;
}

/** Thrown for a path that is not a regular file: a caller may treat it apart from a missing file. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  constructor(readonly kind: string) {
    super(notRegularReason(kind));
  }
}

/**
 * Opens a regular file for reading and returns its descriptor and size. Anything else (a FIFO,
 * a device such as /dev/zero, a socket, a folder) is refused without blocking or reading: a
 * FIFO may never end and a device may never stop giving bytes.
 */
export function openRegularSync(path: string): { fd: number; size: number } {
  const fd = openOrDescribe(path);
  try {
    const info = fstatSync(fd);
    if (info.isFile()) return { fd, size: info.size };
    const kind = info.isDirectory() ? 'a folder' : (specialKind(info) ?? 'an unknown kind of file');
    throw new NotRegularFileError(kind);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function openOrDescribe(path: string): number {
  try {
    return openSync(path, READ_NOW);
  } catch (error) {
    // open(2) refuses a socket with ENXIO, which says nothing to a user.
    const kind = codeOf(error) === 'ENXIO' ? statSync(path, { throwIfNoEntry: false }) : undefined;
    throw kind === undefined ? error : new NotRegularFileError(specialKind(kind) ?? 'an unknown kind of file');
  }
}

/**
 * Runs `read` with a path that opens `name` for the readers that take a path as a plain string:
 * the name itself, or for a name that is not UTF-8 (byte-names.ts) `/proc/self/fd/N` of a
 * descriptor held meanwhile, which Linux reopens as that very file.
 */
export async function withReadablePath<T>(name: string, read: (path: string) => Promise<T>): Promise<T> {
  if (!hasStrayBytes(name)) return read(name);
  const { fd } = openRegularSync(name);
  try {
    return await read(`/proc/self/fd/${fd}`);
  } finally {
    closeSync(fd);
  }
}
