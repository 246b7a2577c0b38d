import { describe, expect, it } from 'vitest';
import { positionalId, positionOf } from '../../src/model/entry.js';

/** What positionalId must spell: JavaScript's own decimal form of the index. */
const spelt = (index: number) => `#${index}`;

describe('positionalId', () => {
  it('spells every index as JavaScript does, across each group of three digits', () => {
    const indices = [...Array.from({ length: 2100 }, (_, i) => i), 9999, 10_000, 99_999, 100_000, 100_999, 101_000, 999_999, 1_000_000, 1_000_001, 1_001_000, 178_001, 12_345_678, 1e9, 1e9 + 7, 2 ** 31, 2 ** 32 + 1, 1e15, Number.MAX_SAFE_INTEGER];
    for (const index of indices) expect(positionalId(index)).toBe(spelt(index));
    for (const index of indices) expect(positionOf(positionalId(index))).toBe(index);
  });

  it('spells random safe integers as JavaScript does', () => {
    // Park–Miller: every product stays an exact integer.
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 5000; i++) {
      const index = Math.floor(next() ** 4 * Number.MAX_SAFE_INTEGER);
      expect(positionalId(index)).toBe(spelt(index));
    }
  });

  it('leaves what is no safe index to JavaScript: huge, fractional or negative numbers', () => {
    for (const index of [1e21, 2 ** 60, 1.5, -1, -0, Number.MAX_SAFE_INTEGER + 2]) expect(positionalId(index)).toBe(spelt(index));
  });
});
