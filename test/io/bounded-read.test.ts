import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBoundedText, readProblem, sizeInWords } from '../../src/io/bounded-read.js';

const dir = mkdtempSync(join(tmpdir(), 'td-bounded-'));

function problem(path: string, max = 1024): string {
  try {
    readBoundedText(path, max);
  } catch (error) {
    return readProblem(error);
  }
  throw new Error(`${path} was read`);
}

describe('readBoundedText', () => {
  it('reads a regular file whole, without its byte order mark', () => {
    writeFileSync(join(dir, 'bom.json'), '\uFEFF{"a":1}');
    writeFileSync(join(dir, 'plain.json'), '{"a":"\uFEFF"}');
    expect(readBoundedText(join(dir, 'bom.json'), 1024)).toBe('{"a":1}');
    expect(readBoundedText(join(dir, 'plain.json'), 1024)).toBe('{"a":"\uFEFF"}');
  });

  it('refuses what is not a regular file without opening it for a blocking read', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    symlinkSync('/dev/zero', join(dir, 'zero'));
    symlinkSync('/dev/urandom', join(dir, 'urandom'));
    mkdirSync(join(dir, 'folder'));
    expect(problem(join(dir, 'fifo'))).toBe('a FIFO, not a regular file');
    expect(problem(join(dir, 'zero'))).toBe('a character device, not a regular file');
    expect(problem(join(dir, 'urandom'))).toBe('a character device, not a regular file');
    expect(problem(join(dir, 'folder'))).toBe('a folder, not a regular file');
    expect(problem(join(dir, 'missing'))).toBe('no such file or directory');
  });

  it('refuses a file over its bound, saying both sizes', () => {
    writeFileSync(join(dir, 'big'), 'x'.repeat(3000));
    expect(problem(join(dir, 'big'), 2048)).toBe('2.9 KiB, more than the 2 KiB it may be');
    expect(readBoundedText(join(dir, 'big'), 3000)).toHaveLength(3000);
  });

  it('says sizes in words', () => {
    expect([sizeInWords(12), sizeInWords(64 * 1024), sizeInWords(256 * 1024 * 1024)]).toEqual(['12 bytes', '64 KiB', '256 MiB']);
  });
});
