import { isUtf8 } from 'node:buffer';

/**
 * File names are bytes on Linux and need not be UTF-8 (`café` written in Latin-1 is `caf\xe9`).
 * Inside the tool every path is a string; a byte that is not part of valid UTF-8 is kept as a
 * lone surrogate U+DC80–U+DCFF (Python's "surrogateescape"), which valid UTF-8 can never decode
 * to, so the mapping is exact both ways. Names are turned back into bytes where they meet the
 * file system (`fsName`) and where they are written out as a list (`bytesOfName`).
 */

const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** The name these bytes spell: plain UTF-8 text, with each stray byte kept as an escape. */
export function nameFromBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const units: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = sequenceLength(bytes, at);
    if (length === 0) {
      units.push(0xdc00 + bytes[at]!);
      at += 1;
      continue;
    }
    let code = length === 1 ? bytes[at]! : bytes[at]! & (0xff >> (length + 1));
    for (let next = at + 1; next < at + length; next++) code = (code << 6) | (bytes[next]! & 0x3f);
    if (code > 0xffff) units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
    else units.push(code);
    at += length;
  }
  let name = '';
  for (let at = 0; at < units.length; at += 8192) name += String.fromCharCode(...units.slice(at, at + 8192));
  return name;
}

/** Whether a name holds bytes that are not UTF-8 (and so must reach the file system as bytes). */
export function hasStrayBytes(name: string): boolean {
  return ESCAPED.test(name);
}

/** The bytes a name stands for. */
export function bytesOfName(name: string): Buffer {
  if (!hasStrayBytes(name)) return Buffer.from(name);
  const parts: Buffer[] = [];
  let run = '';
  for (let at = 0; at < name.length; at++) {
    const code = name.charCodeAt(at);
    const lone = code >= 0xdc80 && code <= 0xdcff && !(at > 0 && isHighSurrogate(name.charCodeAt(at - 1)));
    if (!lone) {
      run += name[at];
      continue;
    }
    parts.push(Buffer.from(run), Buffer.of(code - 0xdc00));
    run = '';
  }
  parts.push(Buffer.from(run));
  return Buffer.concat(parts);
}

/** What to hand `fs` for a name: the string itself, or its bytes when it holds stray bytes. */
export function fsName(name: string): string | Buffer {
  return hasStrayBytes(name) ? bytesOfName(name) : name;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** How many bytes the valid UTF-8 sequence at `at` takes, or 0 when the byte there starts none. */
function sequenceLength(bytes: Buffer, at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f; // no UTF-16 surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f; // nothing above U+10FFFF
  } else return 0;
  if (at + length > bytes.length) return 0;
  const second = bytes[at + 1]!;
  if (second < low || second > high) return 0;
  for (let next = at + 2; next < at + length; next++) if ((bytes[next]! & 0xc0) !== 0x80) return 0;
  return length;
}
