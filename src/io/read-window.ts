import { readSync } from 'node:fs';

/** What a read that misses fills: at this size a read costs about twice a one-line read here, and holds the next few lines. */
const WINDOW = 64 * 1024;

/**
 * Byte ranges of an open file, read mostly in increasing order (an entry's line by its offset):
 * a range outside the window held fills the window from its start, so the ranges after it cost no
 * system call. Slim reads a quarter of a million lines of a 1 GiB session one by one, and a read
 * costs about what copying 30 KB does, so one a line was an eighth of its time. What `read`
 * returns is valid until the next read.
 */
export class ReadWindow {
  private buffer: Buffer;
  /** The file's bytes from `start` to `end` are at the start of `buffer`. */
  private start = 0;
  private end = 0;

  constructor(
    private readonly fd: number,
    private readonly size = WINDOW,
  ) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** The `length` bytes at `offset`; throws when the file ends before them (it changed as it was read). */
  read(offset: number, length: number): Buffer {
    if (offset < this.start || offset + length > this.end) this.fill(offset, length);
    const at = offset - this.start;
    return this.buffer.subarray(at, at + length);
  }

  private fill(offset: number, length: number): void {
    const want = Math.max(this.size, length);
    // A line longer than the window grows it for good, as one buffer a line once did (a fresh one each time cost its page faults).
    if (this.buffer.length < want) this.buffer = Buffer.allocUnsafe(Math.max(want, 2 * this.buffer.length));
    this.start = this.end = offset;
    let got = 0;
    while (got < length) {
      const read = readSync(this.fd, this.buffer, got, want - got, offset + got);
      if (read === 0) throw new Error(`the file ends before the ${length}-byte line at byte ${offset}: it changed while it was read`);
      got += read;
      this.end = offset + got;
    }
  }
}
