import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/report/unified-diff.js';

const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff(text('a', 'b'), text('a', 'b'), 'a/x', 'b/x')).toBe('');
  });

  it('writes hunks as diff -u does: three lines of context, near changes in one hunk', () => {
    const before = text('h', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12');
    const after = text('h', '1', '2', '3', 'x', '5', '6', '7', '8', '9', '10', '11', '12', 'new');
    expect(unifiedDiff(before, after, 'a/s', 'b/s')).toBe(
      ['--- a/s', '+++ b/s', '@@ -2,7 +2,7 @@', ' 1', ' 2', ' 3', '-4', '+x', ' 5', ' 6', ' 7', '@@ -11,3 +11,4 @@', ' 10', ' 11', ' 12', '+new', ''].join('\n'),
    );
    expect(unifiedDiff(text('a', 'b', 'c'), text('a', 'c'), 'a/s', 'b/s')).toBe(['--- a/s', '+++ b/s', '@@ -1,3 +1,2 @@', ' a', '-b', ' c', ''].join('\n'));
  });

  it('marks a last line without a line ending, and adds at the start of an empty text', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n', 'a/s', 'b/s')).toBe(['--- a/s', '+++ b/s', '@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+b', ''].join('\n'));
    expect(unifiedDiff('', 'a\n', 'a/s', 'b/s')).toBe(['--- a/s', '+++ b/s', '@@ -0,0 +1 @@', '+a', ''].join('\n'));
  });

  it('stays linear on a large file with changes spread through it', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `{"n":${i}}`);
    const changed = lines.filter((_, i) => i % 1000 !== 0);
    const joined = (list: string[]) => list.map((line) => `${line}\n`).join('');
    const diff = unifiedDiff(joined(lines), joined(changed), 'a/s', 'b/s');
    expect(diff.split('\n').filter((line) => line.startsWith('-{')).length).toBe(200);
  });
});
