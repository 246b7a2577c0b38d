import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readFileLines } from '../../src/io/file-lines.js';
import { readLines, type RawLine } from '../../src/io/line-reader.js';

const MiB = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'td-file-lines-'));

const seen = (lines: string[]) => (line: RawLine) => {
  lines.push(`${line.number}@${line.offset}:${line.eol}:${line.bytes.toString('latin1')}`);
};

async function both(content: Buffer, range: { start?: number; end?: number } = {}) {
  const path = join(dir, 'file.jsonl');
  writeFileSync(path, content);
  const fromFile: string[] = [];
  const fromStream: string[] = [];
  const fileSummary = await readFileLines(path, seen(fromFile), range);
  const streamSummary = await readLines(Readable.from([content.subarray(range.start ?? 0, range.end ?? content.length)]), seen(fromStream));
  return { fromFile, fromStream, fileSummary, streamSummary };
}

describe('readFileLines', () => {
  it('gives the lines a stream would, though it refills its buffers: lines longer than a buffer, and ones across buffer edges', async () => {
    // Each line differs from the next, so a piece kept from a refilled buffer would show.
    const lines = [
      'a'.repeat(MiB - 3),
      'b'.repeat(10),
      'c'.repeat(2 * MiB + 17),
      'd'.repeat(MiB),
      ...Array.from({ length: 300 }, (_, i) => String.fromCharCode(101 + (i % 20)).repeat(7919 + i)),
    ];
    const content = Buffer.from(`${lines.join('\n')}\r\nlast line without an ending`, 'latin1');
    const { fromFile, fromStream, fileSummary, streamSummary } = await both(content);
    expect(fromFile).toHaveLength(lines.length + 1);
    expect(fromFile).toEqual(fromStream);
    expect(fileSummary).toEqual(streamSummary);
    expect(fileSummary.bytes).toBe(content.length);
  });

  it('reads only the range asked for, offsets counted from its start', async () => {
    const content = Buffer.from('one\ntwo\nthree\nfour\n');
    const { fromFile, fileSummary } = await both(content, { start: 4, end: 14 });
    expect(fromFile).toEqual(['1@0:lf:two', '2@4:lf:three']);
    expect(fileSummary).toEqual({ bom: false, bytes: 10, lines: 2 });
  });

  it('handles an empty file and a byte-order mark', async () => {
    expect((await both(Buffer.alloc(0))).fromFile).toEqual([]);
    const { fromFile, fileSummary } = await both(Buffer.from('\uFEFF{}\n'));
    expect(fromFile).toEqual(['1@3:lf:{}']);
    expect(fileSummary.bom).toBe(true);
  });
});
