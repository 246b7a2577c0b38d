import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { reason, UserError } from '../errors.js';

/**
 * `--files-from <file|->`: one path per line, or NUL-separated with `-0` (what `find -print0`
 * and `scan -l -0` write), the only way to pass names that hold newlines. Empty entries (a
 * trailing separator, blank lines) are skipped; nothing else is trimmed, since a name may begin
 * or end with spaces.
 */
export async function readPathList(from: string, nul: boolean, stdin: Readable): Promise<string[]> {
  let bytes: Buffer;
  try {
    bytes = from === '-' ? await readAll(stdin) : await readFile(from);
  } catch (error) {
    throw new UserError(`cannot read --files-from ${from}: ${reason(error)}`);
  }
  const text = bytes.toString('utf8');
  if (!nul && text.includes('\0')) throw new UserError(`--files-from ${from} holds NUL bytes: add -0 to read a NUL-separated list`);
  return text.split(nul ? '\0' : '\n').filter((path) => path !== '');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `-l`: the paths, each ended by a newline, or by NUL with `-0`. */
export function formatPathList(paths: readonly string[], nul: boolean): string {
  return paths.map((path) => `${path}${nul ? '\0' : '\n'}`).join('');
}
