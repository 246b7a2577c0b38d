import type { FileHandle } from 'node:fs/promises';

/**
 * Writes every byte of `pieces` at `position` (null: the file's own position) and returns how
 * many. writev(2) may stop short, mid-piece, or at the kernel's limit of pieces per call (1,024):
 * libuv writes those 1,024 at a time and takes a batch of nothing but empty pieces (the dropped
 * lines of a repair) for the end of the file, so empty pieces go first and a short write goes on.
 */
export async function writevAll(handle: FileHandle, pieces: readonly Buffer[], position: number | null): Promise<number> {
  let rest = pieces.filter((piece) => piece.length > 0);
  let total = 0;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest, position === null ? undefined : position + total);
    total += bytesWritten;
    let done = 0;
    while (done < rest.length && bytesWritten >= rest[done]!.length) bytesWritten -= rest[done++]!.length;
    rest = rest.slice(done);
    if (bytesWritten > 0) rest[0] = rest[0]!.subarray(bytesWritten);
  }
  return total;
}
