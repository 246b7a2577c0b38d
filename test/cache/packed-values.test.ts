import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { packValues, unpackValues } from '../../src/cache/packed-values.js';

/** A note of the shape the Gemini CLI decoder makes for a message line. */
const messageNote = (k: number) => ({
  kind: 'message',
  id: `m${String(k).padStart(6, '0')}`,
  pointer: '',
  summary: { type: 'user', pointer: '', sent: true, calls: [], responses: [], placeholder: false, parts: 1, size: { kind: 'text', bytes: 5 + k } },
});

describe('plain values packed as one byte stream and tables', () => {
  it('reads back every kind of value as it was: keys in order, keys set to undefined, numbers of every kind, nesting', () => {
    const odd = Object.create(null) as Record<string, unknown>;
    odd.x = 1;
    const values: unknown[] = [
      undefined,
      null,
      true,
      false,
      0,
      127,
      128,
      2 ** 32 + 5,
      Number.MAX_SAFE_INTEGER,
      -1,
      -0,
      0.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'ünïcödé ✓',
      [],
      [1, [2, [3, 'deep']], { a: [] }],
      { z: 1, a: 2, m: undefined },
      { kind: 'list', clear: true, messages: [messageNote(1), messageNote(2)] },
      { kind: 'rewind', id: 'm000001' },
      JSON.parse('{"__proto__": "a key, not a prototype", "b": 1}'),
      odd,
    ];
    const back = unpackValues(packValues(values));
    expect(back).toHaveLength(values.length);
    expect(back).toEqual(values);
    expect(Object.is(back[10], -0)).toBe(true);
    expect(Object.keys(back[18] as object)).toEqual(['z', 'a', 'm']);
    expect('m' in (back[18] as object)).toBe(true);
    const proto = back[21] as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe('a key, not a prototype');
  });

  it('writes each string and each shape once, and a checkpoint’s notes in a fraction of what V8 writes', () => {
    const notes: unknown[] = [];
    for (let k = 0; k < 20_000; k++) notes.push(messageNote(k));
    for (let k = 19_999; k >= 0; k--) notes.push({ kind: 'rewind', id: `m${String(k).padStart(6, '0')}` });
    const packed = packValues(notes);
    // The ids, and kind, pointer, type, text and the keys: each once.
    expect(packed.strings.length).toBeLessThan(20_000 + 30);
    expect(packed.shapes.length).toBe(4);
    expect(packed.bytes.length).toBeLessThan(serialize(notes).length / 4);
    expect(unpackValues(packed)).toEqual(notes);
  });

  it('refuses what it cannot read back as it was', () => {
    for (const value of [new Map(), new Date(0), new Uint8Array(1), () => 1, Symbol('s'), 1n, { inner: new Set() }]) {
      expect(() => packValues([value])).toThrow(/cannot pack/);
    }
  });

  it('throws for a stream that does not hold what was packed, and never reads past it', () => {
    const packed = packValues([{ id: 'a', list: [1, 2, 3] }, 'b', 3.5]);
    for (let cut = 1; cut < packed.bytes.length; cut++) {
      let back: unknown[] | undefined;
      try {
        back = unpackValues({ ...packed, bytes: packed.bytes.subarray(0, cut) });
      } catch (error) {
        expect((error as Error).message).toMatch(/packed/);
        continue;
      }
      // A cut between two whole values is a shorter list of them, never a value made up.
      expect(back).toEqual(unpackValues(packed).slice(0, back.length));
    }
    expect(() => unpackValues({ ...packed, strings: [] })).toThrow(/names no entry/);
    expect(() => unpackValues({ ...packed, shapes: [] })).toThrow(/names no entry/);
    expect(() => unpackValues({ ...packed, bytes: new Uint8Array([200]) })).toThrow(/no known kind/);
    expect(() => unpackValues({ ...packed, bytes: new Uint8Array([7, 0xff, 0xff, 0xff, 0x0f]) })).toThrow(/longer than the stream/);
    expect(() => unpackValues({ ...packed, bytes: new Uint8Array([4, ...new Array(10).fill(0xff), 1]) })).toThrow(/too long/);
  });
});
