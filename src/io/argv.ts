import { readFileSync } from 'node:fs';
import { nameFromBytes } from './byte-names.js';

/**
 * Node decodes the command line as UTF-8 and puts U+FFFD for bytes that are not, so a file name
 * in Latin-1 (`caf\xe9.jsonl`) arrives as a name no file has. Linux keeps the bytes in
 * /proc/self/cmdline: each argument that lost bytes is taken from there, kept as byte-names.ts
 * keeps names. Arguments are matched from the end (Node's own options come before the script),
 * and only when every one of them decodes to what Node gave; elsewhere the arguments stay as given.
 */
export function argvWithBytes(argv: readonly string[], cmdline: () => Buffer = () => readFileSync('/proc/self/cmdline')): string[] {
  if (!argv.some((arg) => arg.includes('\uFFFD'))) return [...argv];
  let raw: Buffer[];
  try {
    raw = splitNul(cmdline());
  } catch {
    return [...argv];
  }
  const offset = raw.length - argv.length;
  if (offset < 0 || argv.some((arg, i) => i > 0 && raw[offset + i]!.toString('utf8') !== arg)) return [...argv];
  return argv.map((arg, i) => (arg.includes('\uFFFD') && i > 0 ? nameFromBytes(raw[offset + i]!) : arg));
}

function splitNul(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf(0); at !== -1; at = bytes.indexOf(0, start)) {
    parts.push(bytes.subarray(start, at));
    start = at + 1;
  }
  if (start < bytes.length) parts.push(bytes.subarray(start));
  return parts;
}
