import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { splicedCopy, type Splice } from '../../src/io/spliced-copy.js';

const dir = mkdtempSync(join(tmpdir(), 'td-spliced-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The same copy made the plain way: the file's bytes with each span replaced. */
function expected(content: Buffer, splices: readonly Splice[]): Buffer {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const splice of splices) {
    pieces.push(content.subarray(at, splice.start), Buffer.from(splice.bytes));
    at = splice.end;
  }
  pieces.push(content.subarray(at));
  return Buffer.concat(pieces);
}

/**
 * What splicedCopy writes, each piece taken only when its write would end, a turn later, as a
 * file's write does: a buffer read into again before then would show here.
 */
async function copied(path: string, size: number, splices: readonly Splice[], chunk: number, slow = false): Promise<Buffer> {
  const written: Buffer[] = [];
  const write = async (pieces: readonly Buffer[]): Promise<void> => {
    await new Promise((resolve) => (slow ? setTimeout(resolve, 3) : setImmediate(resolve)));
    for (const piece of pieces) written.push(Buffer.from(piece));
  };
  await splicedCopy(path, size, splices, write, chunk);
  return Buffer.concat(written);
}

/**
 * The same copy with the splices handed out as asked for (see Splices): each call gets those that
 * start before its end and were not given before; the ends asked for must only grow.
 */
async function copiedAsAsked(path: string, size: number, splices: readonly Splice[], chunk: number): Promise<Buffer> {
  const written: Buffer[] = [];
  let given = 0;
  let last = 0;
  const upTo = (end: number): readonly Splice[] => {
    expect(end).toBeGreaterThanOrEqual(last);
    last = end;
    const fresh: Splice[] = [];
    while (given < splices.length && splices[given]!.start < end) fresh.push(splices[given++]!);
    return fresh;
  };
  await splicedCopy(path, size, upTo, async (pieces) => void written.push(...pieces.map((piece) => Buffer.from(piece))), chunk);
  return Buffer.concat(written);
}

describe('splicedCopy', () => {
  it('writes the file with its spans replaced, whatever the chunks cut: spans across one or many chunks, at the start and end, empty and longer replacements, given as a list or as asked for', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.uint8Array({ maxLength: 50 })), { maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        async (bytes, spans, chunk) => {
          const content = Buffer.from(bytes);
          // Spans in order and apart, inside the file.
          const splices: Splice[] = [];
          let from = 0;
          for (const [gap, length, replacement] of spans) {
            const start = from + (content.length === 0 ? 0 : gap % (content.length + 1));
            const end = Math.min(content.length, start + length);
            if (start > content.length) break;
            splices.push({ start, end, bytes: replacement });
            from = end;
          }
          const path = join(dir, 'content');
          writeFileSync(path, content);
          expect(await copied(path, content.length, splices, chunk)).toEqual(expected(content, splices));
          expect(await copiedAsAsked(path, content.length, splices, chunk)).toEqual(expected(content, splices));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('lets each splice go once it is written: a copy that changes every line holds about a chunk of them, not the file', async () => {
    const lines = 2000;
    const content = Buffer.from(Array.from({ length: lines }, (_, n) => `line ${String(n).padStart(5, '0')}\n`).join(''));
    const path = join(dir, 'every-line');
    writeFileSync(path, content);
    // Made as they are asked for and held here only weakly: the copy's references are the only strong ones.
    const held: Array<WeakRef<Splice>> = [];
    let given = 0;
    const upTo = (end: number): readonly Splice[] => {
      const fresh: Splice[] = [];
      for (; given < lines && given * 11 < end; given++) {
        const splice = { start: given * 11, end: given * 11 + 10, bytes: Buffer.from(`LINE ${String(given).padStart(5, '0')}`) };
        held.push(new WeakRef(splice));
        fresh.push(splice);
      }
      return fresh;
    };
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const written: Buffer[] = [];
    let alive: number | undefined;
    await splicedCopy(
      path,
      content.length,
      upTo,
      async (pieces) => {
        written.push(...pieces.map((piece) => Buffer.from(piece)));
        // Half way through: the first thousand lines were written chunks ago.
        if (alive === undefined && given > 1500) {
          await new Promise((resolve) => setImmediate(resolve));
          gc();
          alive = held.slice(0, 1000).filter((ref) => ref.deref() !== undefined).length;
        }
      },
      1024,
    );
    expect(Buffer.concat(written).toString()).toBe(content.toString().replaceAll('line', 'LINE'));
    expect(alive).toBe(0);
  });

  it('never reads into a buffer a slow write still holds', async () => {
    const content = Buffer.from(Array.from({ length: 4000 }, (_, n) => `line ${n}\n`).join(''));
    const splices: Splice[] = [100, 9000, 20000, 30001].map((start) => ({ start, end: start + 7, bytes: Buffer.from('<changed>') }));
    const path = join(dir, 'slow');
    writeFileSync(path, content);
    expect(await copied(path, content.length, splices, 4096, true)).toEqual(expected(content, splices));
  });

  it('copies only the bytes the first read saw: what was appended since stays out', async () => {
    const path = join(dir, 'grown');
    writeFileSync(path, 'line one\nline two\nappended later\n');
    expect((await copied(path, 18, [{ start: 5, end: 8, bytes: Buffer.from('ONE!') }], 4)).toString()).toBe('line ONE!\nline two\n');
  });

  it('refuses, in one line, a file that got shorter since it was read', async () => {
    const path = join(dir, 'shrunk');
    writeFileSync(path, 'x'.repeat(100));
    truncateSync(path, 40);
    const error = await copied(path, 100, [], 16).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/got shorter while it was read \(40 of 100 bytes\); nothing was written/);
  });
});
