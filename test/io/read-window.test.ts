import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadWindow } from '../../src/io/read-window.js';

const dir = mkdtempSync(join(tmpdir(), 'td-read-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('byte ranges read through a window', () => {
  it('gives the bytes at each offset, in order, backwards, across the window and longer than it', () => {
    const file = join(dir, 'lines');
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, k) => `line ${k} ${'x'.repeat(k % 97)}\n`).join(''));
    writeFileSync(file, bytes);
    const fd = openSync(file, 'r');
    try {
      const window = new ReadWindow(fd, 256);
      const ranges: Array<[number, number]> = [[0, 10], [5, 100], [200, 100], [1000, 3000], [40, 7], [bytes.length - 9, 9], [0, bytes.length]];
      for (let at = 0; at + 50 < bytes.length; at += 1237) ranges.push([at, 50]);
      for (const [offset, length] of ranges) expect(window.read(offset, length).equals(bytes.subarray(offset, offset + length))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('throws, naming the line, when the file ends before the bytes asked for', () => {
    const file = join(dir, 'short');
    writeFileSync(file, 'a'.repeat(1000));
    const fd = openSync(file, 'r');
    try {
      const window = new ReadWindow(fd, 64);
      expect(window.read(900, 100).toString()).toBe('a'.repeat(100));
      truncateSync(file, 500);
      expect(() => window.read(450, 100)).toThrow(/file ends before the 100-byte line at byte 450: it changed/);
    } finally {
      closeSync(fd);
    }
  });
});
