import { closeSync, readSync } from 'node:fs';
import { openSync } from '../../io/named-fs.js';
import { recordText } from '../../io/split-records.js';
import type { EntryStore } from '../../model/entry-store.js';

/**
 * Lends `use` a reader of entries' parsed lines from `file` (by their offsets: the model keeps no
 * content), and closes the file after.
 */
export function withParsedLines<T>(file: string, entries: EntryStore, use: (read: (entry: number) => unknown) => T): T {
  let fd: number | undefined;
  try {
    return use((entry) => {
      fd ??= openSync(file, 'r');
      const length = entries.byteLength[entry]!;
      const bytes = Buffer.allocUnsafe(length);
      readSync(fd, bytes, 0, length, entries.offset(entry));
      return JSON.parse(recordText(bytes)) as unknown;
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
