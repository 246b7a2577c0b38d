import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesOfName, fsName, hasStrayBytes, nameFromBytes } from '../../src/io/byte-names.js';

describe('names as bytes', () => {
  it('a UTF-8 name is the plain string, and goes to fs as that string', () => {
    for (const name of ['café.jsonl', '日本語/😀 x.jsonl', 'a\uFFFDb', '']) {
      expect(nameFromBytes(Buffer.from(name))).toBe(name);
      expect(hasStrayBytes(name)).toBe(false);
      expect(fsName(name)).toBe(name);
    }
  });

  it('a byte that is not UTF-8 is kept as a lone low surrogate and turned back into that byte', () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0xc0, 0xaf]);
    const name = nameFromBytes(bytes);
    expect(name).toBe('caf\uDCE9.😀\uDCED\uDCA0\uDC80\uDCC0\uDCAF');
    expect(hasStrayBytes(name)).toBe(true);
    expect(bytesOfName(name)).toEqual(bytes);
    expect(fsName(name)).toEqual(bytes);
  });

  it('round-trips any bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(1 + (i % 64));
      expect(bytesOfName(nameFromBytes(bytes))).toEqual(bytes);
    }
  });
});
