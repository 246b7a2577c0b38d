import { createHash } from 'node:crypto';

const DIGITS = '0123456789';
const HEX = '0123456789abcdef';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A new id for a call that reuses another call's id, in the shape the provider gave it: the part
 * up to the last separator stays (`toolu_`, `call_`, Kimi's `functions.read:`), the rest is
 * replaced by characters of the same kind (digits, hex, or letters and digits) and at least the
 * same length, derived from the old id so a repeat run writes the same bytes.
 */
export function freshCallId(old: string, taken: (id: string) => boolean): string {
  const cut = Math.max(old.lastIndexOf('_'), old.lastIndexOf('-'), old.lastIndexOf(':'), old.lastIndexOf('.'), old.lastIndexOf('|')) + 1;
  const prefix = old.slice(0, cut);
  const tail = old.slice(cut);
  const alphabet = /^\d+$/.test(tail) ? DIGITS : /^[0-9a-f]+$/.test(tail) ? HEX : BASE62;
  const length = Math.max(tail.length, 8);
  for (let n = 1; ; n++) {
    const id = prefix + derive(`${old}#${n}`, alphabet, length);
    if (!taken(id)) return id;
  }
}

function derive(seed: string, alphabet: string, length: number): string {
  let out = '';
  for (let block = 0; out.length < length; block++) {
    for (const byte of createHash('sha256').update(`${seed}/${block}`).digest()) {
      if (out.length === length) break;
      out += alphabet[byte % alphabet.length];
    }
  }
  // A Kimi index keeps no leading zero, as the provider writes it.
  return alphabet === DIGITS ? out.replace(/^0/, '1') : out;
}
