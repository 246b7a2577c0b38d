/**
 * How IdTable stores one id in bytes. Most ids are machine-made: UUIDs (Claude Code), hex
 * (pi's 8-character entry ids), so those take half the room or less:
 *   0x00 + 16 bytes   a lowercase canonical UUID
 *   0x01 + n bytes    lowercase hex of 2n digits
 *   anything else     the id in Latin-1, when every character fits a byte and the first is not 0x00 or 0x01
 * Other ids (wider characters, or longer than MAX_ENCODED bytes) do not encode.
 */
export const MAX_ENCODED = 256;

const UUID = 0x00;
const HEX = 0x01;
const DIGITS = '0123456789abcdef';

/** Writes the encoding of `id` into `out` and returns its length, or -1 when it does not encode. */
export function encodeId(id: string, out: Uint8Array): number {
  if (id.length === 36 && isUuid(id)) {
    out[0] = UUID;
    let at = 1;
    for (let i = 0; i < 36; i += 2) {
      if (id.charCodeAt(i) === 0x2d) i -= 1;
      else out[at++] = (nibble(id.charCodeAt(i)) << 4) | nibble(id.charCodeAt(i + 1));
    }
    return 17;
  }
  const length = id.length;
  if (length >= 2 && length % 2 === 0 && length / 2 < MAX_ENCODED && isHex(id)) {
    out[0] = HEX;
    for (let i = 0; i < length; i += 2) out[1 + i / 2] = (nibble(id.charCodeAt(i)) << 4) | nibble(id.charCodeAt(i + 1));
    return 1 + length / 2;
  }
  if (length > MAX_ENCODED || (length > 0 && id.charCodeAt(0) <= HEX)) return -1;
  for (let i = 0; i < length; i++) {
    const code = id.charCodeAt(i);
    if (code > 0xff) return -1;
    out[i] = code;
  }
  return length;
}

/** Where a packed id is spelled out before it becomes one flat string. */
const spelled = Buffer.alloc(2 * MAX_ENCODED + 4);
const HEX_DIGITS = Buffer.from(DIGITS, 'latin1');

export function decodeId(bytes: Buffer, start: number, end: number): string {
  const marker = bytes[start];
  if (end === start || (marker !== UUID && marker !== HEX)) return bytes.toString('latin1', start, end);
  let length = 0;
  for (let i = start + 1; i < end; i++) {
    if (marker === UUID && (length === 8 || length === 13 || length === 18 || length === 23)) spelled[length++] = 0x2d;
    spelled[length++] = HEX_DIGITS[bytes[i]! >> 4]!;
    spelled[length++] = HEX_DIGITS[bytes[i]! & 15]!;
  }
  return spelled.toString('latin1', 0, length);
}

function isUuid(id: string): boolean {
  for (let i = 0; i < 36; i++) {
    const code = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? code !== 0x2d : nibble(code) < 0) return false;
  }
  return true;
}

function isHex(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (nibble(id.charCodeAt(i)) < 0) return false;
  return true;
}

/** The value of a lowercase hex digit, -1 for anything else. */
function nibble(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}
