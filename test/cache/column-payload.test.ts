import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packColumns, unpackColumns } from '../../src/cache/column-payload.js';

/** The parts as one buffer of its own, as a checkpoint is read (its start a multiple of 8). */
function joined(parts: readonly Uint8Array[]): Buffer {
  const whole = Buffer.allocUnsafeSlow(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

describe('a model saved as aligned columns and a skeleton', () => {
  it('reads back every typed array (empty ones too) as a view of the bytes read, and the objects around them as they were', () => {
    const shared = new Uint8Array([7, 8, 9, 10, 11]);
    const value = {
      counts: new Uint32Array([1, 2, 3]),
      odd: new Uint8Array([5]),
      signed: new Int32Array([-1, 2 ** 31 - 1]),
      wide: new Float64Array([0.5]),
      none: new Uint16Array(0),
      slice: shared.subarray(1, 4),
      buffer: Buffer.from('ids'),
      rare: new Map([[3, { pointer: '/message', images: [{ bytes: 12 }] }]]),
      strings: ['', 'read', '/message/content/1'],
      n: 42,
    };
    const { parts, layout } = packColumns(value);
    expect(parts.every((part) => part.length > 0)).toBe(true);
    expect(layout.columns.every(([, offset]) => offset % 8 === 0)).toBe(true);
    const payload = joined(parts);
    const back = unpackColumns(payload, layout) as typeof value;
    expect(back.counts).toEqual(value.counts);
    expect(back.signed).toEqual(value.signed);
    expect(back.wide).toEqual(value.wide);
    expect(back.none).toEqual(new Uint16Array(0));
    expect([...back.slice]).toEqual([8, 9, 10]);
    expect(Buffer.from(back.buffer).toString()).toBe('ids');
    expect(back.rare).toEqual(value.rare);
    expect(back.strings).toEqual(value.strings);
    expect(back.n).toBe(42);
    // Views of what was read, not copies.
    expect(back.counts.buffer).toBe(payload.buffer);
    expect(back.odd.buffer).toBe(payload.buffer);
    // What a checkpoint's CRC is computed over is what is written.
    expect(parts.reduce((crc, part) => crc32(part, crc), 0)).toBe(crc32(payload));
  });

  it('refuses a layout that does not fit what was read', () => {
    const { parts, layout } = packColumns({ a: new Uint32Array(4) });
    const payload = joined(parts);
    expect(() => unpackColumns(payload, { ...layout, columns: [['Uint32Array', 0, 1000]] })).toThrow(/past the end/);
    expect(() => unpackColumns(payload, { ...layout, columns: [['Function', 0, 1]] })).toThrow(/cannot hold/);
    expect(() => unpackColumns(payload, { ...layout, columns: [['Uint32Array', 3, 1]] })).toThrow(/cannot hold/);
    expect(() => unpackColumns(payload, { ...layout, columns: [] })).toThrow(/does not hold/);
  });
});
