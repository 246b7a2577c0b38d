import { mkdtempSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writevAll } from '../../src/io/write-pieces.js';

/** A line, then `empty` empty pieces (dropped lines), then another line. */
function pieces(empty: number): Buffer[] {
  return [Buffer.from('first\n'), ...Array.from({ length: empty }, () => Buffer.alloc(0)), Buffer.from('last\n')];
}

describe('writevAll', () => {
  it.each([0, 1023, 1024, 3000])('writes every byte past %i empty pieces (writev takes 1,024 a call)', async (empty) => {
    const path = join(mkdtempSync(join(tmpdir(), 'td-writev-')), 'out');
    const file = await open(path, 'w');
    try {
      expect(await writevAll(file, pieces(empty), null)).toBe(11);
      expect(await writevAll(file, pieces(empty), null)).toBe(11);
    } finally {
      await file.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('first\nlast\nfirst\nlast\n');
  });

  it('writes at a given position, more pieces than one call takes', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'td-writev-')), 'out');
    const file = await open(path, 'w');
    const many = Array.from({ length: 2500 }, (_, i) => Buffer.from(`${i % 10}`));
    try {
      await file.write('xx');
      expect(await writevAll(file, many, 2)).toBe(2500);
    } finally {
      await file.close();
    }
    expect(readFileSync(path, 'utf8')).toBe(`xx${many.join('')}`);
  });
});
