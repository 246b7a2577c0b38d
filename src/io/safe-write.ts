import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, open, readFile, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';

/** Size and modification time of a file, taken before reading it, to detect concurrent appends. */
export interface SourceStamp {
  size: number;
  mtimeMs: number;
}

export async function stampOf(path: string): Promise<SourceStamp> {
  try {
    const { size, mtimeMs } = await stat(path);
    return { size, mtimeMs };
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
}

/**
 * Throws UserError (one line, names the pid and lock path) when `<path>.lock` exists and its JSON
 * `pid` is a live process, unless `force`. A lock whose pid is dead, or that cannot be parsed, does not block.
 * (OpenClaw writes `{"pid":123,"createdAt":"…"}`, later with `maxHoldMs`, `starttime`.)
 */
export async function assertNotLocked(path: string, force: boolean): Promise<void> {
  if (force) return;
  const lockPath = `${path}.lock`;
  const text = await readFile(lockPath, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const pid = lockPid(text);
  if (pid !== undefined && isAlive(pid)) {
    throw new UserError(`${path} is locked by running process ${pid} (${lockPath}); retry when it is idle, or use --force`);
  }
}

function lockPid(text: string): number | undefined {
  try {
    const pid: unknown = (JSON.parse(text) as { pid?: unknown } | null)?.pid;
    // kill(0) and kill(-n) signal whole process groups, which would always look alive.
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** EPERM means the process exists but belongs to someone else. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

/** Large enough that a multi-GB rewrite is a few thousand write calls, small enough not to matter in memory. */
const FLUSH_BYTES = 1 << 20;

/**
 * A temp file in the same folder as `target` (so rename is atomic), created with the target's mode
 * when the target exists (else 0o644 minus umask). Any failure removes the temp file before it is
 * reported, so an abandoned AtomicFile never leaves litter behind.
 */
export class AtomicFile {
  private handle: FileHandle | undefined;
  private readonly staging = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  private settled = false;

  private constructor(
    readonly target: string,
    /** The file rename replaces: the target with symlinks resolved, so a linked session stays linked. */
    private readonly destination: string,
    readonly tempPath: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }

  static async create(target: string): Promise<AtomicFile> {
    try {
      const destination = await realpath(target).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT') return target;
        throw error;
      });
      const original = await stat(destination).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      const tempPath = join(dirname(destination), `.${basename(destination)}.td-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
      const handle = await open(tempPath, 'wx', original === undefined ? 0o644 : original.mode & 0o7777);
      const file = new AtomicFile(target, destination, tempPath, handle);
      if (original !== undefined) {
        await file.guard(async () => {
          // open() applied the umask; the replacement must keep exactly the original's bits.
          await handle.chmod(original.mode & 0o7777);
          // Under sudo the temp file belongs to root, and the agent could no longer append to its session.
          if (process.getuid?.() === 0) await handle.chown(original.uid, original.gid);
        });
      }
      return file;
    } catch (error) {
      throw asUserError(error, `cannot write ${target}`);
    }
  }

  /** Buffered; call with Buffers or strings in order, awaiting each. The chunk may be reused once this settles. */
  async write(chunk: Buffer | string): Promise<void> {
    this.openHandle();
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (this.used + length > this.staging.length) {
      await this.guard(() => this.flush());
      if (length >= this.staging.length) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        await this.guard(() => this.writeAll(bytes));
        return;
      }
    }
    if (typeof chunk === 'string') this.staging.write(chunk, this.used);
    else chunk.copy(this.staging, this.used);
    this.used += length;
  }

  /** Flush, fsync and close the temp file. */
  async finish(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    await this.guard(async () => {
      await this.flush();
      await handle.sync();
      this.handle = undefined;
      await handle.close();
    });
  }

  /**
   * Verify the target still matches `expected`, then, if `backup`, keep the original as
   * `<target>.bak-<timestamp>`, rename the temp file over the target and fsync the folder.
   * On any failure the temp file is removed and the target is untouched.
   */
  async commit(options: { backup: boolean; expected?: SourceStamp }): Promise<{ backupPath?: string }> {
    if (this.settled) throw new Error(`AtomicFile for ${this.target} is already committed or discarded`);
    await this.finish();
    const { destination } = this;
    if (options.expected !== undefined) {
      const now = await stat(destination).catch(() => undefined);
      if (now === undefined || now.size !== options.expected.size || now.mtimeMs !== options.expected.mtimeMs) {
        await this.discard();
        throw new UserError(`${this.target} changed while it was being repaired; nothing was written`);
      }
    }
    let backupPath: string | undefined;
    try {
      if (options.backup) {
        const candidate = `${destination}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await keepBackup(destination, candidate);
        backupPath = candidate;
      }
      await rename(this.tempPath, destination);
      this.settled = true;
    } catch (error) {
      if (backupPath !== undefined) await rm(backupPath, { force: true }).catch(() => undefined);
      await this.discard();
      throw asUserError(error, `cannot write ${this.target}`);
    }
    // Past the rename the repair has happened; a folder that refuses fsync must not make it look failed.
    await syncFolder(dirname(destination)).catch(() => undefined);
    return backupPath === undefined ? {} : { backupPath };
  }

  /** Remove the temp file (dry runs, refused writes, errors). Safe to call twice. */
  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await rm(this.tempPath, { force: true }).catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.staging.subarray(0, this.used);
    this.used = 0;
    await this.writeAll(bytes);
  }

  /** write(2) may stop short (a nearly full disk); the next call then reports why. */
  private async writeAll(bytes: Buffer): Promise<void> {
    const handle = this.openHandle();
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
  }

  private openHandle(): FileHandle {
    if (this.handle === undefined) throw new Error(`AtomicFile for ${this.target} is already finished or discarded`);
    return this.handle;
  }

  private async guard(step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      await this.discard();
      throw asUserError(error, `cannot write ${this.target}`);
    }
  }
}

/** A hard link costs nothing and is the exact original; filesystems without links get a copy with the same mode. */
async function keepBackup(original: string, backupPath: string): Promise<void> {
  try {
    await link(original, backupPath);
    return;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw error;
  }
  try {
    await copyFile(original, backupPath, constants.COPYFILE_EXCL);
    const copy = await open(backupPath, 'r+');
    try {
      await copy.chmod((await stat(original)).mode & 0o7777);
      await copy.sync();
    } finally {
      await copy.close();
    }
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') await rm(backupPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Makes the rename itself survive a crash, not only the new content. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function asUserError(error: unknown, doing: string): UserError {
  return error instanceof UserError ? error : new UserError(`${doing}: ${reason(error)}`);
}
