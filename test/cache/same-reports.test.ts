import { cpSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
// Plain JavaScript shared with `npm run harden`.
import { MUTATIONS, random } from '../../harden/lib/mutations.mjs';
import { ScanCache } from '../../src/cache/scan-cache.js';
import { expandInputs } from '../../src/io/inputs.js';
import { runScan, scanSettings, type RunResult } from '../../src/run/scan.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const RACY = 20;
const SETTLE = 60;

/** The fixtures copied, each scan with and without a cache, and a look at how many the cache answered. */
async function setUp() {
  const root = mkdtempSync(join(tmpdir(), 'td-same-'));
  const dir = join(root, 'fixtures');
  cpSync(FIXTURES, dir, { recursive: true });
  const files = (await expandInputs([dir], [])).map((input) => input.path);
  const plain = await scanSettings({});
  const cacheDir = join(root, 'cache');
  const withCache = async (): Promise<{ result: RunResult; answered: number }> => {
    const cache = new ScanCache({ dir: cacheDir, key: { command: 'scan' }, warn: (line) => expect.fail(line), racyMs: RACY });
    let looked = 0;
    const lookup = cache.lookup.bind(cache);
    cache.lookup = async (path) => {
      const found = await lookup(path);
      if (found.hit) looked += 1;
      return found;
    };
    return { result: await runScan(sources(files), { ...plain, cache }), answered: looked };
  };
  return { files, withCache, without: () => runScan(sources(files), plain) };
}

function sources(files: readonly string[]) {
  return files.map((path) => ({ kind: 'file' as const, path }));
}

describe('reports with the scan cache are the reports without it', () => {
  it('over every fixture, cold and warm', async () => {
    const { files, withCache, without } = await setUp();
    await sleep(SETTLE);
    const expected = await without();
    const cold = await withCache();
    const warm = await withCache();
    expect(cold.result).toEqual(expected);
    expect(warm.result).toEqual(expected);
    expect(cold.answered).toBe(0);
    // Every fixture is answered from the cache the second time, findings and all.
    expect(warm.answered).toBe(files.length);
    expect(files.length).toBeGreaterThan(90);
  });

  it('after each fuzz mutator applied in place, each putting the modification time back, and after an edit that keeps the size too', async () => {
    const { files, withCache, without } = await setUp();
    // Whole seconds: times utimes puts back exactly.
    for (const file of files) utimesSync(file, 1_700_000_000, 1_700_000_000);
    await sleep(SETTLE);
    await withCache();
    const edits: Array<[string, (bytes: Buffer, pick: (n: number) => number) => Buffer]> = [...Object.entries(MUTATIONS), ['same-size', sameSizeEdit]];
    for (const [round, [name, edit]] of edits.entries()) {
      const pick = random(1009 * (round + 1));
      for (const file of files) {
        // In place: the same inode, its bytes overwritten, its times put back (only size, ctime and bytes tell).
        writeFileSync(file, edit(readFileSync(file), pick));
        utimesSync(file, 1_700_000_000, 1_700_000_000);
      }
      const expected = await without();
      expect((await withCache()).result, name).toEqual(expected);
      await sleep(SETTLE);
      // Seen once as it now is: answered from the cache, still the same.
      await withCache();
      expect((await withCache()).result, name).toEqual(expected);
    }
  });
});

/** One byte of a line's middle changed for another that keeps the length: `"` becomes `'` inside the file. */
function sameSizeEdit(bytes: Buffer, pick: (n: number) => number): Buffer {
  const out = Buffer.from(bytes);
  const quotes: number[] = [];
  for (let at = out.indexOf(0x22); at !== -1; at = out.indexOf(0x22, at + 1)) quotes.push(at);
  if (quotes.length > 0) out[quotes[Math.floor(quotes.length / 2) + (pick(2) === 0 ? 0 : -1 * Math.min(1, Math.floor(quotes.length / 2)))]!] = 0x27;
  return out;
}
