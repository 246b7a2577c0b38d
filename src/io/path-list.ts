import { createReadStream, statSync } from './named-fs.js';
import type { Readable } from 'node:stream';
import { reason, UserError } from '../errors.js';
import { bytesOfName, nameFromBytes } from './byte-names.js';
import { specialKind } from './regular-file.js';

/** Far above any file system's PATH_MAX (4096 on Linux): an entry this long is no list of paths. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** Far more than any folder tree holds: a longer list is a stream that never ends (/dev/urandom, yes). */
const MAX_LIST_BYTES = 64 * 1024 * 1024;
const MAX_PATHS = 1_000_000;
/** Blank entries beyond this, and beyond the paths seen, are a stream of separators, not a list. */
const MAX_EMPTY_ENTRIES = 1000;

/**
 * `--files-from <file|->`: one path per line, or NUL-separated with `-0` (what `find -print0`
 * and `scan -l -0` write), the only way to pass names that hold newlines. A name is taken as
 * bytes (one that is not UTF-8 is kept exactly, see byte-names.ts). Empty entries (a trailing
 * separator, blank lines) are skipped; in a newline list a line of only spaces is skipped too and
 * a Windows line end (`\r\n`) is one separator. Nothing else is trimmed, since a name may begin or
 * end with spaces. Read as a stream: a list from `<(find …)` is a pipe. A device, socket or folder
 * is refused without reading; a stream that is not a list (`/dev/zero` on standard input, a binary
 * file) is refused at its first overlong entry, at a run of empty entries, or past 64 MiB or a million entries.
 */
export async function readPathList(from: string, nul: boolean, stdin: Readable): Promise<string[]> {
  const separator = nul ? 0 : 0x0a;
  const paths: string[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let empty = 0;
  const notAList = (what: string) => new UserError(`--files-from ${from}: ${what}; this is not a list of paths`);
  const end = () => {
    let entry = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    if (!nul && entry.at(-1) === 0x0d) entry = entry.subarray(0, -1);
    if (entry.length > 0 && (nul || entry.some((byte) => byte !== 0x20 && byte !== 0x09))) {
      if (paths.push(nameFromBytes(entry)) > MAX_PATHS) throw notAList(`more than ${MAX_PATHS} entries`);
    } else if (++empty > MAX_EMPTY_ENTRIES && empty > paths.length) throw notAList(`more than ${MAX_EMPTY_ENTRIES} empty entries`);
  };
  try {
    for await (const chunk of from === '-' ? stdin : openList(from)) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (!nul && bytes.includes(0)) throw new UserError(`--files-from ${from} holds NUL bytes: add -0 to read a NUL-separated list`);
      total += bytes.length;
      if (total > MAX_LIST_BYTES) throw notAList(`more than ${MAX_LIST_BYTES / (1024 * 1024)} MiB`);
      let start = 0;
      for (let at = bytes.indexOf(separator); at !== -1; at = bytes.indexOf(separator, start)) {
        pending.push(bytes.subarray(start, at));
        end();
        start = at + 1;
      }
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
      if (pendingBytes > MAX_ENTRY_BYTES) throw notAList(`an entry is longer than ${MAX_ENTRY_BYTES} bytes`);
    }
  } catch (error) {
    throw error instanceof UserError ? error : new UserError(`cannot read --files-from ${from}: ${reason(error)}`);
  }
  end();
  return paths;
}

/** A list file, or a pipe (`<(find …)`); a device such as /dev/zero, a socket or a folder is refused unread. */
function openList(from: string): Readable {
  const info = statSync(from);
  const kind = info.isDirectory() ? 'a folder' : info.isFIFO() ? undefined : specialKind(info);
  if (kind !== undefined) throw new UserError(`--files-from ${from} is ${kind}, not a file holding a list of paths`);
  return createReadStream(from);
}

/** `-l`: the paths, each ended by a newline, or by NUL with `-0`, as the bytes each name stands for. */
export function formatPathList(paths: readonly string[], nul: boolean): Buffer {
  const end = Buffer.from(nul ? '\0' : '\n');
  return Buffer.concat(paths.flatMap((path) => [bytesOfName(path), end]));
}
