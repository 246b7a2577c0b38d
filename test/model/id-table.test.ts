import { describe, expect, it } from 'vitest';
import { positionalId } from '../../src/model/entry.js';
import { IdTable } from '../../src/model/id-table.js';

describe('IdTable', () => {
  it('gives one handle per id, positional or not, and spells each back', () => {
    const table = new IdTable();
    const ids = ['#0', '#7', '#123456789', '#1234567890', '#07', '#', '#x1', 'a1b2c3d4', '3f9c2a71-0b1e-4c8a-9d3f-2a6b7c8d9e0f', 'toolu_01abc'];
    const handles = ids.map((id) => table.intern(id));
    expect(new Set(handles).size).toBe(ids.length);
    expect(ids.map((id) => table.intern(id))).toEqual(handles);
    expect(handles.map((handle) => table.text(handle))).toEqual(ids);
    expect(ids.map((id) => table.handle(id))).toEqual(handles);
    expect(table.handle('#8')).toBe(-1);
    expect(table.handle('#99')).toBe(-1);
  });

  it('finds positional ids after the hash index is dropped, and across tables', () => {
    const table = new IdTable();
    const handles = Array.from({ length: 5000 }, (_, i) => table.intern(positionalId(i)));
    table.intern('real-id');
    table.trim();
    expect(table.handle(positionalId(4321))).toBe(handles[4321]);
    expect(table.handle('real-id')).toBe(5000);
    const other = new IdTable();
    other.intern('first');
    const moved = other.internFrom(table, handles[42]!);
    expect(other.text(moved)).toBe('#42');
    expect(other.intern('#42')).toBe(moved);
    other.clear();
    expect(other.handle('#42')).toBe(-1);
  });
});

describe('IdTable positions', () => {
  it('interns a position as the id it spells, and reads a handle back as its position', () => {
    const table = new IdTable();
    const spelled = table.intern('#314');
    expect(table.internPosition(314)).toBe(spelled);
    const fresh = table.internPosition(2718);
    expect(table.text(fresh)).toBe('#2718');
    expect(table.intern('#2718')).toBe(fresh);
    expect(table.position(fresh)).toBe(2718);
    expect(table.position(table.intern('#0314'))).toBe(-1);
    expect(table.position(table.intern('a1b2'))).toBe(-1);
    // Past the digits found by number, a position is hashed like any id, and still spelled once.
    expect(table.text(table.internPosition(12345678901))).toBe('#12345678901');
    expect(table.internPosition(12345678901)).toBe(table.intern('#12345678901'));
    // The largest and smallest found by number, from either side; every digit spelled back.
    expect(table.internPosition(999999999)).toBe(table.intern('#999999999'));
    expect(table.text(table.intern('#1000000000'))).toBe('#1000000000');
    expect(table.intern('#0')).toBe(table.internPosition(0));
    expect([0, 9, 10, 99, 100, 1090, 999999999].map((n) => table.text(table.internPosition(n)))).toEqual(['#0', '#9', '#10', '#99', '#100', '#1090', '#999999999']);
  });
});
