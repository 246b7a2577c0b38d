import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Entry } from '../../src/model/entry.js';
import { EntryStore } from '../../src/model/entry-store.js';
import { IdIndex } from '../../src/model/id-index.js';

const entriesWith = (ids: string[]) => {
  const store = new EntryStore();
  ids.forEach((id, index) => {
    const entry = new Entry(index, index + 1);
    entry.id = id;
    store.push(entry);
  });
  return store;
};

describe('IdIndex', () => {
  it('answers like a Map of id to entry index, keeping the earlier or the later duplicate as asked', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 300 }), fc.boolean(), (ids, keepEarlier) => {
        const entries = entriesWith(ids);
        const index = new IdIndex(entries);
        const map = new Map<string, number>();
        entries.toArray().forEach((entry, at) => {
          expect(index.add(at, keepEarlier)).toBe(map.get(entry.id!));
          if (!keepEarlier || !map.has(entry.id!)) map.set(entry.id!, at);
        });
        for (const id of [...ids, 'absent', '']) {
          expect(index.get(id)).toBe(map.get(id));
          expect(index.has(id)).toBe(map.has(id));
        }
      }),
    );
  });

  it('finds each of thousands of ids that differ only in their last digits', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const index = new IdIndex(entriesWith(ids));
    ids.forEach((_, at) => index.add(at, true));
    expect(ids.every((id, at) => index.get(id) === at)).toBe(true);
    expect(index.get('00000000-0000-4000-8000-999999999999')).toBeUndefined();
  });
});
