import { closeSync, readSync } from 'node:fs';
import { openSync } from '../io/named-fs.js';
import type { Entry } from '../model/entry.js';

/** Lends `use` a reader of entries' lines from `file` (by their offsets), and closes the file after. */
export function withLineReader(file: string | undefined, use: (lineBytes: ((entry: Entry) => Buffer) | undefined) => void): void {
  if (file === undefined) return use(undefined);
  let fd: number | undefined;
  try {
    use((entry) => {
      fd ??= openSync(file, 'r');
      const bytes = Buffer.allocUnsafe(entry.byteLength);
      readSync(fd, bytes, 0, entry.byteLength, entry.offset);
      return bytes;
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
