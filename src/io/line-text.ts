/**
 * A line's bytes as text; `ascii`: whether they are pure ASCII (Buffer.isAscii). For those, latin1
 * decoding gives the very same string several times faster than UTF-8 decoding (64 MiB of such
 * lines: 30 against 130 ms). The large lines of a real session mostly hold some non-ASCII text,
 * so a scan gains a few percent; a generated all-ASCII dataset decodes every line this way.
 */
export function lineText(bytes: Buffer, ascii: boolean): string {
  return ascii ? bytes.toString('latin1') : bytes.toString('utf8');
}

const BACKSLASH = 0x5c;

/**
 * Whether a line of valid UTF-8 that is not ASCII may be parsed from its bytes read as latin1
 * (see Decoder.decode's `latin1`); `text` is those bytes read so. JSON's structure is all ASCII
 * and every byte of a multi-byte character is 0x80 or above, so such a text parses exactly when
 * the UTF-8 text does, into the same structure, numbers and ASCII strings; a string holding other
 * characters holds their UTF-8 bytes, one character each, which utf8Of (formats/json.ts) turns
 * back. That holds unless an escape names a character of 0x80 or above (`\u00e9`): it would read
 * as a byte. A line with one is read as UTF-8. Parsing the one-byte text instead of decoding
 * UTF-8 into a two-byte one saves a third of the parse of a real session: its large lines mostly
 * hold a little non-ASCII text.
 */
export function readsAsLatin1(text: string): boolean {
  // Each `u` rather than each backslash: tool arguments hold a backslash every few bytes (`\"`), and a `u` is rarer.
  for (let u = text.indexOf('u', 1); u !== -1; u = text.indexOf('u', u + 1)) {
    if (text.charCodeAt(u - 1) !== BACKSLASH) continue;
    // `\u00` and a digit 0-7 names an ASCII character.
    if (text.startsWith('00', u + 1)) {
      const digit = text.charCodeAt(u + 3);
      if (digit >= 0x30 && digit <= 0x37) continue;
    }
    // After an odd number of backslashes this one is escaped, and the `u` is a letter (`\\update`).
    let before = 0;
    while (u - before - 2 >= 0 && text.charCodeAt(u - before - 2) === BACKSLASH) before += 1;
    if (before % 2 === 0) return false;
  }
  return true;
}
