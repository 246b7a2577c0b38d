import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines, type RawLine } from '../../src/io/line-reader.js';

type Seen = Omit<RawLine, 'bytes'> & { text: string };

async function read(chunks: Buffer[], maxLineBytes?: number): Promise<{ lines: Seen[]; bom: boolean; bytes: number }> {
  const lines: Seen[] = [];
  const summary = await readLines(
    Readable.from(chunks),
    (line) => {
      const { bytes, ...rest } = line;
      lines.push({ ...rest, text: bytes.toString('utf8') });
    },
    maxLineBytes,
  );
  return { lines, bom: summary.bom, bytes: summary.bytes };
}

function split(buffer: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (buffer.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(buffer.subarray(start, point));
    start = point;
  }
  chunks.push(buffer.subarray(start));
  return chunks.filter((chunk) => chunk.length > 0);
}

describe('readLines', () => {
  it('numbers lines from 1 and records byte offsets', async () => {
    const { lines } = await read([Buffer.from('ab\ncd\n\nef')]);
    expect(lines.map((l) => [l.number, l.offset, l.text, l.eol])).toEqual([
      [1, 0, 'ab', 'lf'],
      [2, 3, 'cd', 'lf'],
      [3, 6, '', 'lf'],
      [4, 7, 'ef', 'none'],
    ]);
  });

  it('strips CR of CRLF endings and reports them', async () => {
    const { lines } = await read([Buffer.from('a\r\nb\n')]);
    expect(lines.map((l) => [l.text, l.eol, l.byteLength])).toEqual([
      ['a', 'crlf', 1],
      ['b', 'lf', 1],
    ]);
  });

  it('removes a UTF-8 BOM and counts offsets after it', async () => {
    const { lines, bom } = await read([Buffer.from('\uFEFF{"a":1}\n{}\n')]);
    expect(bom).toBe(true);
    expect(lines[0]).toMatchObject({ text: '{"a":1}', offset: 3 });
    expect(lines[1]).toMatchObject({ offset: 11 });
  });

  it('gives the same lines however the input is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('\n', '\r\n', 'é', '你')), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (parts, cuts) => {
          const buffer = Buffer.from(parts.join(''));
          const whole = await read([buffer]);
          const chunked = await read(split(buffer, cuts));
          expect(chunked.lines).toEqual(whole.lines);
          const rebuilt = whole.lines.map((l) => l.text + (l.eol === 'crlf' ? '\r\n' : l.eol === 'lf' ? '\n' : '')).join('');
          expect(rebuilt).toBe(buffer.toString('utf8'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('assembles a 64 MiB line that spans many chunks', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024, 0x61);
    const input = Buffer.concat([Buffer.from('x\n'), big, Buffer.from('\ny\n')]);
    const lengths: number[] = [];
    await readLines(Readable.from(split(input, Array.from({ length: 80 }, (_, i) => i * 1_000_003))), (line) => {
      lengths.push(line.bytes.length);
    });
    expect(lengths).toEqual([1, 64 * 1024 * 1024, 1]);
  });

  it('discards the content of lines over the limit but keeps counting', async () => {
    const { lines } = await read([Buffer.from('short\n'), Buffer.from('x'.repeat(100)), Buffer.from('y'.repeat(100) + '\nnext\n')], 150);
    expect(lines.map((l) => [l.number, l.oversized, l.byteLength, l.text.length])).toEqual([
      [1, false, 5, 5],
      [2, true, 200, 0],
      [3, false, 4, 4],
    ]);
    expect(lines[2]!.offset).toBe(6 + 201);
  });

  it('holds a line over the limit to the limit whether it comes in one chunk or many, and at the end of input too', async () => {
    const text = 'a\n' + 'x'.repeat(200) + '\nb\n' + 'y'.repeat(300);
    const expected = [
      [1, false, 1, 'a'],
      [2, true, 200, ''],
      [3, false, 1, 'b'],
      [4, true, 300, ''],
    ];
    for (const chunks of [[Buffer.from(text)], split(Buffer.from(text), [1, 50, 120, 203, 260, 400])]) {
      const { lines } = await read(chunks, 150);
      expect(lines.map((l) => [l.number, l.oversized, l.byteLength, l.text])).toEqual(expected);
      expect(lines[3]!.eol).toBe('none');
    }
  });
});
