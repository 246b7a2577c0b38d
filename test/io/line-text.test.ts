import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Of } from '../../src/formats/json.js';
import { readsAsLatin1 } from '../../src/io/line-text.js';

/** Every string of a parsed value, keys too, through utf8Of: what a decoder reads of a line parsed as latin1. */
function asUtf8(value: unknown): unknown {
  if (typeof value === 'string') return utf8Of(value);
  if (Array.isArray(value)) return value.map(asUtf8);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [utf8Of(key), asUtf8(inner)]));
}

function parse(text: string): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: true };
  }
}

/** Text a session holds: ASCII, accents, the whitespace JavaScript's trim knows, line separators, CJK, emoji, escapes. */
const piece = fc.constantFrom('a', ' ', 'é', '\\update', '\\\\u00e9', 'Ã', '\u00a0', '\u0085', '\u2028', '\u3000', '\ufeff', '中文', '😀', '\\', '"', '\n', '\u001b', '\u0000', '\ud800', '{}', '[1,2]', 'ÿ', '\u0100');
const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
})).value;

/** JSON.stringify leaves non-ASCII text raw; some writers escape it (`\u00e9`), which a line read as latin1 may not hold. */
const escapeSome = (line: string, every: number) => {
  let n = 0;
  return line.replace(/[^\x00-\x7f]/g, (c) => (n++ % every === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
};

/** A line's UTF-8 bytes read as latin1: what readsAsLatin1 is given. */
const latin1 = (line: string) => Buffer.from(line, 'utf8').toString('latin1');

describe('a line read as latin1', () => {
  it('parses exactly when its UTF-8 text parses, into the same value once strings are read through utf8Of', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 4 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), (value, every, mutations) => {
        let bytes = Buffer.from(escapeSome(JSON.stringify(value), every === 4 ? Number.MAX_SAFE_INTEGER : every), 'utf8');
        // Mutated bytes: broken structure, stray high bytes, cut characters.
        if (mutations.length > 0) {
          bytes = Buffer.from(bytes);
          for (const [at, byte] of mutations) if (bytes.length > 0) bytes[at % bytes.length] = byte;
        }
        if (!isUtf8(bytes) || !readsAsLatin1(bytes.toString('latin1'))) return;
        const utf8 = parse(bytes.toString('utf8'));
        const latin1 = parse(bytes.toString('latin1'));
        expect('error' in latin1).toBe('error' in utf8);
        if ('value' in latin1 && 'value' in utf8) expect(asUtf8(latin1.value)).toEqual(utf8.value);
      }),
      { numRuns: 3000 },
    );
  });

  it('is not allowed when an escape may name a character of 0x80 or above', () => {
    expect(readsAsLatin1(latin1('{"a":"caf\\u00e9 é"}'))).toBe(false);
    expect(readsAsLatin1(latin1('{"a":"\\u4e2d é"}'))).toBe(false);
    expect(readsAsLatin1(latin1('{"a":"\\ud83d\\ude00 é"}'))).toBe(false);
    // A cut escape at the end of a line: not a line to take a chance on.
    expect(readsAsLatin1(latin1('{"a":"é\\u'))).toBe(false);
    expect(readsAsLatin1(latin1('{"a":"\\u001b[0m é \\u007f"}'))).toBe(true);
    expect(readsAsLatin1(latin1('{"a":"é"}'))).toBe(true);
    // An escaped backslash before a `u`: no escape. One more backslash makes it one again.
    expect(readsAsLatin1(latin1('{"a":"C:\\\\update é"}'))).toBe(true);
    expect(readsAsLatin1(latin1('{"a":"C:\\\\\\u00e9 é"}'))).toBe(false);
    // The escape's backslash at the start of the text, and a `u` with nothing before it.
    expect(readsAsLatin1(latin1('\\u00e9 é'))).toBe(false);
    expect(readsAsLatin1(latin1('u é'))).toBe(true);
  });

  it('gives back each string as UTF-8 decoding gives it', () => {
    for (const s of ['plain', 'café', '中文 😀', '\u00a0\u3000', 'Ã©']) expect(utf8Of(Buffer.from(s, 'utf8').toString('latin1'))).toBe(s);
  });
});
