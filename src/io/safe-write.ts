import type { FileHandle } from 'node:fs/promises';
import { lstat, open, realpath, rename, rm, stat } from './named-fs.js';
import { dirname, resolve } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';
import { removeOnExit, withoutInterruption } from './exit-cleanup.js';
import { assertNotLocked } from './lock.js';
import { backupPathFor, pruneBackups } from './backups.js';
import { changed, Original, stampOf, type SourceStamp } from './original.js';
import { sweepStaleTemps, tempPathFor } from './stale-temps.js';
import { DirectLane, type Leftover } from './direct-lane.js';
import { writevAll } from './write-pieces.js';
import { keepBackup, linked, syncFolder } from './folder-names.js';

export { assertNotLocked, stampOf, type SourceStamp };

/** Large enough that a multi-GB rewrite is a few thousand write calls, small enough not to matter in memory. */
const FLUSH_BYTES = 1 << 20;
/**
 * From this size on, a file is written past the page cache where it can be (see DirectLane):
 * fresh page-cache pages cost more to fill than the disk costs to take the bytes. Repairs to a
 * file, alternating, the output deleted before each: 320 MiB dataset 3.59 s direct against
 * 4.01 s (11 runs); pi sessions of 128 MiB 1.08 against 1.15 s (21 runs), 70 MiB 0.86 against
 * 0.90 s and 32 MiB 0.64 against 0.73 s (11 and 15 runs); at 6 MB the two are even (15 runs).
 */
const DIRECT_FROM_BYTES = 16 << 20;

/**
 * Before reading a file to rewrite in place: refuse it when a live writer holds its lock, sweep
 * what killed runs left beside it (even when nothing will be written), and stamp it.
 */
export async function beginInPlace(path: string, force: boolean): Promise<SourceStamp> {
  await assertNotLocked(path, force);
  const stamp = await stampOf(path);
  await sweepStaleTemps(dirname(await realpath(path).catch(() => resolve(path))));
  return stamp;
}

/** What a commit did besides replacing the target. */
export interface Committed {
  backupPath?: string;
  /** Older backups removed to stay within keepBackups. */
  prunedBackups?: string[];
}

export interface CreateOptions {
  /**
   * true (in place): a symlinked target is followed, so a linked session stays linked. false
   * (`-o`): a symlink at the target is replaced by the file, never written through.
   */
  followLinks?: boolean;
  /** The result's mode (`-o`: the source's). Default: the target's own, else 0o644 minus the umask. */
  mode?: number;
  /** About how many bytes will be written (a repair: its input's size); a large file is written past the page cache where it can be. */
  sizeHint?: number;
}

export interface CommitOptions {
  backup: boolean;
  /** With backup: once the write has succeeded, keep only the newest this many backups (the new one among them); absent, all stay. */
  keepBackups?: number;
  /** The target as it was read: the commit is refused if it changed, and undone if it changes during the rename. */
  expected?: SourceStamp;
  /** Runs just before the target is replaced (the lock check); a throw refuses the commit. */
  lastCheck?: () => Promise<void>;
}

/**
 * A temp file in the same folder as `target` (so rename is atomic), given the target's mode and
 * owner when it replaces an existing file. Any failure removes the temp file before it is
 * reported, so an abandoned AtomicFile never leaves litter behind; so does a signal, and a
 * killed run's temp files are swept by the next run that writes to the folder.
 */
export class AtomicFile {
  private handle: FileHandle | undefined;
  private staging: Buffer;
  private used = 0;
  /** Bytes written to the file so far: writes name their place, as two handles may write it (see DirectLane). */
  private position = 0;
  private settled = false;
  /** An fsync started without waiting for it (see flushEarly). */
  private syncing: Promise<void> | undefined;

  private constructor(
    readonly target: string,
    /** The path rename replaces: with symlinks resolved in place, the literal path for `-o`. */
    private readonly destination: string,
    readonly tempPath: string,
    handle: FileHandle,
    private readonly forget: () => void,
    /** Applied after the last write: writing clears setuid and setgid, and chown clears them too. */
    private readonly mode: number | undefined,
    private readonly owner: { uid: number; gid: number } | undefined,
    /** Whole blocks go this way while it lasts; the last part block, and everything once it fails, through `handle`. */
    private lane: DirectLane | undefined,
  ) {
    this.handle = handle;
    this.staging = lane?.buffer ?? Buffer.allocUnsafe(FLUSH_BYTES);
  }

  static async create(target: string, options: CreateOptions = {}): Promise<AtomicFile> {
    try {
      const follow = options.followLinks ?? true;
      const destination = follow ? await realpath(target).catch(ifMissing(target)) : target;
      const found = await (follow ? stat : lstat)(destination).catch(ifMissing(undefined));
      const existing = found?.isFile() ? found : undefined;
      const mode = options.mode ?? existing?.mode;
      await sweepStaleTemps(dirname(destination));
      const tempPath = tempPathFor(destination, 'tmp');
      // Registered before it exists: a signal a moment after open must not leave it behind.
      const forget = removeOnExit(tempPath);
      // Private until the last write; a new file with no mode to copy gets the usual one.
      const handle = await open(tempPath, 'wx', mode === undefined ? 0o644 : 0o600).catch((error: unknown) => {
        forget();
        throw error;
      });
      const owner = follow && existing !== undefined ? { uid: existing.uid, gid: existing.gid } : undefined;
      const lane = (options.sizeHint ?? 0) >= DIRECT_FROM_BYTES ? await DirectLane.open(tempPath, handle).catch(async (error: unknown) => {
        await handle.close().catch(() => undefined);
        await rm(tempPath, { force: true }).catch(() => undefined);
        forget();
        throw error;
      }) : undefined;
      return new AtomicFile(target, destination, tempPath, handle, forget, mode === undefined ? undefined : mode & 0o7777, owner, lane);
    } catch (error) {
      throw asUserError(error, `cannot write ${target}`);
    }
  }

  /**
   * Buffered; call with Buffers or strings in order, awaiting each. A list of Buffers is written
   * as one chunk, in order. The chunk may be reused once this settles.
   */
  async write(chunk: Buffer | string | readonly Buffer[]): Promise<void> {
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return this.writePieces(chunk);
    if (this.lane !== undefined) return this.stage([typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
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

  /**
   * Writes out what is staged and starts the fsync without waiting for it: the caller can work
   * meanwhile (a repair plans its output again). finish() waits for it.
   */
  async flushEarly(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    // Direct writes are on the disk already; a part block staged waits for finish().
    await this.guard(() => this.flush(false));
    // A failure shows again in finish()'s own fsync, which reports it.
    this.syncing = handle.sync().catch(() => undefined);
  }

  /**
   * Everything written so far, in the temp file, for this process to read (a pass planned again
   * from its bytes); its path, valid until commit or discard. Nothing may be written after.
   */
  async readBack(): Promise<string> {
    await this.guard(() => this.flush());
    return this.tempPath;
  }

  /** Flush, set owner and mode, fsync and close the temp file. */
  async finish(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    await this.guard(async () => {
      await this.flush();
      await this.syncing;
      await this.keepOwnerAndMode(handle);
      // One fsync for the file, whichever handle wrote it: direct writes still need the disk's cache flushed, and the size and extents kept.
      await handle.sync();
      await this.lane?.close();
      this.handle = undefined;
      await handle.close();
    });
  }

  /**
   * Check the target still matches `expected` (and `lastCheck` passes), then, if `backup`, keep
   * the original as `<target>.bak-<timestamp>`, rename the temp file over the target and fsync the
   * folder. Refused: the temp file is removed and the target is untouched. Written to during the
   * rename: the original, with what was written, is put back, and this throws.
   */
  async commit(options: CommitOptions): Promise<Committed> {
    if (this.settled) throw new Error(`AtomicFile for ${this.target} is already committed or discarded`);
    await this.finish();
    let original: Original | undefined;
    try {
      if (options.expected !== undefined) original = await Original.open(this.target, this.destination, options.expected, this.tempPath);
      await options.lastCheck?.();
      await original?.assertUnchanged();
    } catch (error) {
      await original?.close();
      await this.discard();
      throw asUserError(error, `cannot write ${this.target}`);
    }
    return withoutInterruption(() => this.replace(options.backup, original, options.keepBackups));
  }

  /** Remove the temp file (dry runs, refused writes, errors). Safe to call twice. */
  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await this.lane?.close().catch(() => undefined);
    await rm(this.tempPath, { force: true }).catch(() => undefined);
    this.forget();
  }

  private async replace(backup: boolean, original: Original | undefined, keepBackups: number | undefined): Promise<Committed> {
    const { destination } = this;
    let backupPath: string | undefined;
    // A second name for the original, to put it back if a writer reaches it during the rename.
    let hold: string | undefined;
    let forgetHold = (): void => {};
    try {
      if (backup) {
        const candidate = backupPathFor(destination);
        if (await keepBackup(destination, candidate)) hold = candidate;
        backupPath = candidate;
      } else if (original !== undefined) {
        const candidate = tempPathFor(destination, 'hold');
        forgetHold = removeOnExit(candidate);
        if (await linked(destination, candidate)) hold = candidate;
      }
      // Another writer may have replaced the target since the check (two repairs of one file at once):
      // its file would then be the backup and be replaced in turn. The link names what is there now.
      if (hold !== undefined && original !== undefined && !(await original.isAt(hold))) throw changed(this.target);
      await rename(this.tempPath, destination);
      this.settled = true;
      this.forget();
    } catch (error) {
      if (backupPath !== undefined) await rm(backupPath, { force: true }).catch(() => undefined);
      if (hold !== undefined && hold !== backupPath) await rm(hold, { force: true }).catch(() => undefined);
      forgetHold();
      await original?.close();
      await this.discard();
      throw asUserError(error, `cannot write ${this.target}`);
    }
    try {
      if (original !== undefined && (await original.written())) return await this.putBack(original, hold, backupPath);
      // Past the rename the repair has happened; a folder that refuses fsync must not make it look failed.
      await syncFolder(dirname(destination)).catch(() => undefined);
      if (original !== undefined) {
        // Again, later: a writer that opened the file just before the rename may write a moment after it.
        await original.settle();
        if (await original.written()) return await this.putBack(original, hold, backupPath);
      }
      if (hold !== undefined && hold !== backupPath) await rm(hold, { force: true }).catch(() => undefined);
      if (backupPath === undefined) return {};
      // Only now: the new file is in place and settled, and its backup holds what it replaced.
      if (keepBackups === undefined) return { backupPath };
      return { backupPath, prunedBackups: await pruneBackups(destination, backupPath, keepBackups) };
    } finally {
      forgetHold();
      await original?.close();
    }
  }

  private async putBack(original: Original, hold: string | undefined, backupPath: string | undefined): Promise<never> {
    try {
      await original.putBack(hold);
    } catch (error) {
      // The hold is a second name of the original, so it has the new lines; it is left in place.
      throw new UserError(
        `${this.target} was written to while it was being replaced, and putting it back failed: ${reason(error)}` +
          (hold === undefined ? '' : `; the original with the new lines is ${hold}`),
      );
    }
    // The original is live again, so a copied backup of it would only be litter.
    if (backupPath !== undefined) await rm(backupPath, { force: true }).catch(() => undefined);
    await syncFolder(dirname(this.destination)).catch(() => undefined);
    throw new UserError(`${this.target} was written to while it was being replaced; it is back as it was, with the new lines, and nothing was changed (retry when it is idle)`);
  }

  /** As root, chown gives the file back to its owner; otherwise only a group this user is in can be kept. */
  private async keepOwnerAndMode(handle: FileHandle): Promise<void> {
    if (this.owner !== undefined) {
      const own = await handle.stat();
      const { uid, gid } = this.owner;
      if (own.uid !== uid || own.gid !== gid) {
        await handle.chown(uid, gid).catch(() => (own.gid === gid ? undefined : handle.chown(own.uid, gid).catch(() => undefined)));
      }
    }
    if (this.mode !== undefined) await handle.chmod(this.mode);
  }

  /**
   * Writes out what is staged. Through the direct lane, whole blocks are sent (the buffer written
   * while the other is filled), and the part block after them only when `all`, once the lane has
   * written the rest; whatever the lane hands back unwritten is written here first.
   */
  private async flush(all = true): Promise<void> {
    const lane = this.lane;
    if (lane !== undefined) {
      const blocks = this.used - (this.used % DirectLane.BLOCK);
      if (blocks > 0) {
        const filled = this.staging;
        await this.writeLeftovers(await lane.send(blocks, this.position));
        this.position += blocks;
        this.staging = lane.buffer;
        this.used = filled.copy(this.staging, 0, blocks, this.used);
      }
      if (!all) return;
      await this.writeLeftovers(await lane.drain());
    }
    if (this.used === 0) return;
    const bytes = this.staging.subarray(0, this.used);
    this.used = 0;
    await this.writeAll(bytes);
  }

  private async writeLeftovers(leftovers: readonly Leftover[]): Promise<void> {
    for (const { bytes, position } of leftovers) await this.writeAt(bytes, position);
  }

  /** Every byte through the aligned buffer, which the direct lane writes from as it fills. */
  private async stage(pieces: readonly Buffer[]): Promise<void> {
    this.openHandle();
    await this.guard(async () => {
      for (const piece of pieces) {
        for (let at = 0; at < piece.length; ) {
          const copied = piece.copy(this.staging, this.used, at);
          this.used += copied;
          at += copied;
          if (this.used === this.staging.length) await this.flush(false);
        }
      }
    });
  }

  /** Pieces too big to stage go to writev(2) as they are: copying them together would be a second copy of every byte. */
  private async writePieces(pieces: readonly Buffer[]): Promise<void> {
    if (this.lane !== undefined) return this.stage(pieces);
    this.openHandle();
    let length = 0;
    for (const piece of pieces) length += piece.length;
    if (this.used + length <= this.staging.length) {
      for (const piece of pieces) this.used += piece.copy(this.staging, this.used);
      return;
    }
    await this.guard(async () => {
      await this.flush();
      this.position += await writevAll(this.openHandle(), pieces, this.position);
    });
  }

  private async writeAll(bytes: Buffer): Promise<void> {
    await this.writeAt(bytes, this.position);
    this.position += bytes.length;
  }

  /** write(2) may stop short (a nearly full disk); the next call then reports why. */
  private async writeAt(bytes: Buffer, position: number): Promise<void> {
    const handle = this.openHandle();
    for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset, bytes.length - offset, position + offset)).bytesWritten;
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

function ifMissing<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (codeOf(error) === 'ENOENT') return fallback;
    throw error;
  };
}

function asUserError(error: unknown, doing: string): UserError {
  return error instanceof UserError ? error : new UserError(`${doing}: ${reason(error)}`);
}
