import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { codeOf } from '../errors.js';
import { open } from './named-fs.js';

/**
 * Writes to a new file, whole blocks at a time, past the page cache (O_DIRECT): the bytes go from
 * an aligned buffer to the disk, and the kernel neither copies them nor finds fresh pages to cache
 * them in. That copy is most of what writing a large repaired file costs: 320 MiB went to the
 * page cache in 560 ms and its fsync took 125 ms more, against 215–260 ms direct, fsync included
 * (2 cores, ext4 on a virtual disk; bench/README "Also measured"). Only where every part agrees:
 * the platform has O_DIRECT, aligned memory can be had, the file system takes the flag at open
 * and the first write. Anything less, and the caller writes as before.
 */
export class DirectLane {
  /** What a write's position, length and buffer address must be multiples of: 4 KiB suits 512-byte and 4 KiB sectors alike. */
  static readonly BLOCK = 4096;
  /** The buffer's size: a large file is a few hundred writes. */
  static readonly BUFFER_BYTES = 4 << 20;

  private constructor(
    private handle: FileHandle | undefined,
    /** Aligned: WebAssembly memory starts on a page of its own. */
    readonly buffer: Buffer,
  ) {}

  /**
   * A second handle to the file `made` has open at `path` (a temp file just made), or undefined
   * when direct writes cannot be had there. Opened by name, so it must be the very same file: a
   * name swapped for a link or another file meanwhile gets no lane, and nothing written through it.
   */
  static async open(path: string, made: FileHandle): Promise<DirectLane | undefined> {
    const flag = constants.O_DIRECT;
    if (flag === undefined) return undefined;
    const buffer = alignedBuffer();
    if (buffer === undefined) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_WRONLY | constants.O_NOFOLLOW | flag);
    } catch (error) {
      // Refused (a file system without direct writes, a link in its place): written the usual way.
      if (['EINVAL', 'EOPNOTSUPP', 'ELOOP', 'ENOENT'].includes(codeOf(error) ?? '')) return undefined;
      throw error;
    }
    try {
      const [mine, theirs] = await Promise.all([handle.stat(), made.stat()]);
      if (mine.dev === theirs.dev && mine.ino === theirs.ino) return new DirectLane(handle, buffer);
    } catch {
      // Not known to be the same file: no lane.
    }
    await handle.close().catch(() => undefined);
    return undefined;
  }

  /**
   * Writes the buffer's first `length` bytes (whole blocks) at `position` (a whole block); returns
   * how many were written. Fewer: the file system refused a direct write (EINVAL), or wrote short
   * (a nearly full disk); the lane is closed, and the caller writes the rest, and all after it,
   * its own way, where the failure, if any, shows again.
   */
  async write(length: number, position: number): Promise<number> {
    const handle = this.handle;
    let done = 0;
    try {
      while (handle !== undefined && done < length) {
        const { bytesWritten } = await handle.write(this.buffer, done, length - done, position + done);
        done += bytesWritten;
        if (bytesWritten === 0 || done % DirectLane.BLOCK !== 0) break;
      }
    } catch (error) {
      if (codeOf(error) !== 'EINVAL') throw error;
    }
    if (done < length) await this.close();
    return done;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}

/** DirectLane.BUFFER_BYTES of memory on a page boundary, or undefined where none can be had. */
function alignedBuffer(): Buffer | undefined {
  try {
    return Buffer.from(new WebAssembly.Memory({ initial: DirectLane.BUFFER_BYTES / 65536, maximum: DirectLane.BUFFER_BYTES / 65536 }).buffer);
  } catch {
    return undefined;
  }
}
