import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { reason, UserError } from '../errors.js';

/** Far above any file system's PATH_MAX (4096 on Linux): an entry this long is no list of paths. */
const MAX_ENTRY_BYTES = 64 * 1024;

/**
 * `--files-from <file|->`: one path per line, or NUL-separated with `-0` (what `find -print0`
 * and `scan -l -0` write), the only way to pass names that hold newlines. Empty entries (a
 * trailing separator, blank lines) are skipped; nothing else is trimmed, since a name may begin
 * or end with spaces. Read as a stream: a list from `<(find …)` is a pipe, and something that is
 * not a list at all (`/dev/zero`, a binary file) is refused at its first overlong entry.
 */
export async function readPathList(from: string, nul: boolean, stdin: Readable): Promise<string[]> {
  const separator = nul ? 0 : 0x0a;
  const paths: string[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const end = () => {
    const entry = Buffer.concat(pending).toString('utf8');
    pending = [];
    pendingBytes = 0;
    if (entry !== '') paths.push(entry);
  };
  try {
    for await (const chunk of from === '-' ? stdin : createReadStream(from)) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (!nul && bytes.includes(0)) throw new UserError(`--files-from ${from} holds NUL bytes: add -0 to read a NUL-separated list`);
      let start = 0;
      for (let at = bytes.indexOf(separator); at !== -1; at = bytes.indexOf(separator, start)) {
        pending.push(bytes.subarray(start, at));
        end();
        start = at + 1;
      }
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
      if (pendingBytes > MAX_ENTRY_BYTES) throw new UserError(`--files-from ${from}: an entry is longer than ${MAX_ENTRY_BYTES} bytes; this is not a list of paths`);
    }
  } catch (error) {
    throw error instanceof UserError ? error : new UserError(`cannot read --files-from ${from}: ${reason(error)}`);
  }
  end();
  return paths;
}

/** `-l`: the paths, each ended by a newline, or by NUL with `-0`. */
export function formatPathList(paths: readonly string[], nul: boolean): string {
  return paths.map((path) => `${path}${nul ? '\0' : '\n'}`).join('');
}
