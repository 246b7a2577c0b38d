import { closeSync } from 'node:fs';
import { openSync } from '../../io/named-fs.js';
import { ReadWindow } from '../../io/read-window.js';
import { recordText } from '../../io/split-records.js';
import { valueSpan } from '../../json/byte-spans.js';
import type { EntryStore } from '../../model/entry-store.js';

/** An entry's parsed line; members named in `skip` (at the top of the line) read as null. */
export type ReadLine = (entry: number, skip?: readonly string[]) => unknown;

/**
 * Lends `use` a reader of entries' parsed lines from `file` (by their offsets: the model keeps no
 * content), and closes the file after, once a promise `use` returns has settled.
 */
export function withParsedLines<T>(file: string, entries: EntryStore, use: (read: ReadLine) => T): T {
  let fd: number | undefined;
  // One window for every read: each line is parsed before the next is read.
  let window: ReadWindow | undefined;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = window = undefined;
  };
  let result: T;
  try {
    result = use((entry, skip) => {
      window ??= new ReadWindow((fd = openSync(file, 'r')));
      const bytes = window.read(entries.offset(entry), entries.byteLength[entry]!);
      return JSON.parse(recordText(skip === undefined ? bytes : without(bytes, skip))) as unknown;
    });
  } catch (error) {
    close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(close) as T;
  close();
  return result;
}

/**
 * The line with the values of these top-level members written as null, so a long copy nobody
 * reads is neither decoded nor parsed; a member this cannot place (see valueSpan) is kept.
 */
function without(bytes: Buffer, members: readonly string[]): Buffer {
  const spans = members.flatMap((name) => valueSpan(bytes, `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`) ?? []).sort((a, b) => a.start - b.start);
  if (spans.length === 0) return bytes;
  const pieces: Buffer[] = [];
  let at = 0;
  for (const span of spans) {
    pieces.push(bytes.subarray(at, span.start), NULL);
    at = span.end;
  }
  pieces.push(bytes.subarray(at));
  return Buffer.concat(pieces);
}

const NULL = Buffer.from('null');
