import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { appendFile, createWriteStream, open, rename, rm, stat } from './named-fs.js';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { codeOf, reason, UserError } from '../errors.js';
import { removeOnExit } from './exit-cleanup.js';
import { tempPathFor } from './stale-temps.js';

/** Size, modification time and inode of a file, taken before reading it, to detect concurrent writers. */
export interface SourceStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export async function stampOf(path: string): Promise<SourceStamp> {
  try {
    const { size, mtimeMs, ino } = await stat(path);
    return { size, mtimeMs, ino };
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${reason(error)}`);
  }
}

/** A file written this recently belongs to a live session: a writer may be between its open and its write. */
const ACTIVE_MS = 60_000;
/** How long such a writer is given to finish a write that would land in the replaced file. */
const SETTLE_MS = 250;

/**
 * The file an in-place commit replaces, held open across the rename. A writer that opened the
 * file by name just before the rename (pi appends with open-write-close) writes into this old
 * inode, not into the new file; holding it lets the commit see that, and put the original with
 * its new lines back. The new file is held too, for lines that reach it while it was live.
 */
export class Original {
  private constructor(
    private readonly display: string,
    private readonly destination: string,
    private readonly expected: SourceStamp,
    private readonly old: FileHandle,
    private readonly replacement: FileHandle,
    private readonly replacementSize: number,
  ) {}

  static async open(display: string, destination: string, expected: SourceStamp, tempPath: string): Promise<Original> {
    const old = await open(destination, 'r').catch((error: unknown) => {
      if (codeOf(error) === 'ENOENT') throw changed(display);
      throw error;
    });
    try {
      const replacement = await open(tempPath, 'r');
      return new Original(display, destination, expected, old, replacement, (await replacement.stat()).size);
    } catch (error) {
      await old.close();
      throw error;
    }
  }

  /** Throws when the file is no longer what was read: appended to, rewritten, or replaced by another file. */
  async assertUnchanged(): Promise<void> {
    const [held, named] = await Promise.all([this.old.stat(), stat(this.destination).catch(() => undefined)]);
    if (this.differs(held) || named?.ino !== held.ino) throw changed(this.display);
  }

  /** Whether `path` names the file that was read (a hard link to it), not one put there since. */
  async isAt(path: string): Promise<boolean> {
    const [held, named] = await Promise.all([this.old.stat(), stat(path).catch(() => undefined)]);
    return named?.ino === held.ino && named.dev === held.dev;
  }

  /** After the rename: did anyone write to the original since it was read? */
  async written(): Promise<boolean> {
    return this.differs(await this.old.stat());
  }

  /** Gives a live session's writer time to finish a write it began before the rename; idle files wait for nothing. */
  async settle(): Promise<void> {
    if (Date.now() - this.expected.mtimeMs < ACTIVE_MS) await sleep(SETTLE_MS);
  }

  /**
   * Makes the original (with what was written to it) the live file again, then appends what
   * reached the new file while it was live. `hold` is a second name of the original, when the
   * folder allows hard links; without one the original is copied back.
   */
  async putBack(hold: string | undefined): Promise<void> {
    if (hold !== undefined) await rename(hold, this.destination);
    else await this.copyBack();
    const late = await readFrom(this.replacement, this.replacementSize);
    if (late.length > 0) await appendFile(this.destination, late);
  }

  async close(): Promise<void> {
    await Promise.all([this.old.close().catch(() => undefined), this.replacement.close().catch(() => undefined)]);
  }

  private differs(now: { size: number; mtimeMs: number; ino: number }): boolean {
    return now.size !== this.expected.size || now.mtimeMs !== this.expected.mtimeMs || now.ino !== this.expected.ino;
  }

  private async copyBack(): Promise<void> {
    const { mode, uid, gid } = await this.old.stat();
    const copy = tempPathFor(this.destination, 'tmp');
    const forget = removeOnExit(copy);
    try {
      await pipeline(createReadStream('', { fd: this.old, start: 0, autoClose: false }), createWriteStream(copy, { flags: 'wx', mode: 0o600 }));
      const handle = await open(copy, 'r+');
      try {
        if (process.getuid?.() === 0) await handle.chown(uid, gid);
        await handle.chmod(mode & 0o7777);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const copied = (await stat(copy)).size;
      await rename(copy, this.destination);
      // A line that reached the original while it was being copied.
      const after = await readFrom(this.old, copied);
      if (after.length > 0) await appendFile(this.destination, after);
    } catch (error) {
      await rm(copy, { force: true }).catch(() => undefined);
      throw error;
    } finally {
      forget();
    }
  }
}

export function changed(display: string): UserError {
  return new UserError(`${display} changed while it was being repaired; nothing was written`);
}

/** What a writer appended while the commit was under way: a few lines, so read whole. */
async function readFrom(handle: FileHandle, start: number): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size <= start) return Buffer.alloc(0);
  const bytes = Buffer.alloc(size - start);
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, start + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return bytes.subarray(0, offset);
}
