import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scanThroughCache } from '../../src/cache/cached-scan.js';
import { cacheFileName, MAX_ENTRIES, MAX_SHARD_BYTES, MAX_VERDICT_BYTES, readCacheFile, writeCacheFile, type CacheEntry } from '../../src/cache/cache-file.js';
import { cacheKey, entryId } from '../../src/cache/cache-key.js';
import { ScanCache } from '../../src/cache/scan-cache.js';
import { scanFile } from '../../src/pipeline/scan.js';
import { version } from '../../src/version.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const KEY = { command: 'test' };
/** Files are written, then waited on this long: older than the cache's racy window (RACY). */
const RACY = 20;
const SETTLE = 60;

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'td-cache-'));
}

function open(dir: string, warnings: string[] = [], key: Record<string, unknown> = KEY): ScanCache {
  return new ScanCache({ dir, key, warn: (line) => warnings.push(line), racyMs: RACY });
}

/** Scans one file through the cache: its report, and whether the cache answered. */
async function scan(cache: ScanCache, path: string): Promise<{ findings: number; format: string | null; cached: boolean }> {
  let scanned = false;
  const [outcome] = await scanThroughCache(cache, [path], (paths) => {
    scanned = true;
    return Promise.all(paths.map((p) => scanFile(p).then((report) => ({ report }))));
  });
  if (outcome === undefined || !('report' in outcome)) throw new Error('no report');
  return { findings: outcome.report.findings.length, format: outcome.report.format, cached: !scanned };
}

/** The cache file that holds `path`'s entry, for the test's settings. */
function shardFile(dir: string, path: string): string {
  return join(dir, cacheFileName(cacheKey({ ...KEY, strategy: 'metadata' }), entryId(path)));
}

async function copied(name: string, dir = folder()): Promise<string> {
  const path = join(dir, name.replace('/', '-'));
  writeFileSync(path, readFileSync(join(FIXTURES, name)));
  await sleep(SETTLE);
  return path;
}

describe('scan cache', () => {
  it('answers an unchanged file from the cache, findings and all, and writes no transcript text', async () => {
    const dir = folder();
    const clean = await copied('pi/healthy.jsonl');
    const broken = await copied('pi/v1-missing-result.jsonl');
    expect(await scan(open(dir), clean)).toEqual({ findings: 0, format: 'pi', cached: false });
    expect(await scan(open(dir), clean)).toEqual({ findings: 0, format: 'pi', cached: true });
    expect(await scan(open(dir), broken)).toEqual({ findings: 1, format: 'pi', cached: false });
    expect(await scan(open(dir), broken)).toEqual({ findings: 1, format: 'pi', cached: true });
    const shards = readdirSync(dir).filter((name) => name.startsWith('verdicts-'));
    const written = shards.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
    expect(shards.flatMap((name) => Object.keys(JSON.parse(readFileSync(join(dir, name), 'utf8')).entries))).toHaveLength(2);
    // No string of the transcripts longer than an id: every text value of theirs is longer.
    for (const file of ['pi/healthy.jsonl', 'pi/v1-missing-result.jsonl']) {
      for (const text of textsOf(JSON.parse(`[${readFileSync(join(FIXTURES, file), 'utf8').trim().split('\n').join(',')}]`))) {
        if (text.length > 40) expect(written, file).not.toContain(text);
      }
    }
  });

  it('checks again a file edited in place that keeps its size and modification time', async () => {
    const dir = folder();
    const path = join(folder(), 'healthy.jsonl');
    writeFileSync(path, readFileSync(join(FIXTURES, 'pi/healthy.jsonl')));
    // Whole seconds: times utimes can put back exactly.
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    await sleep(SETTLE);
    expect(await scan(open(dir), path)).toMatchObject({ cached: false });
    expect(await scan(open(dir), path)).toMatchObject({ cached: true });
    const before = statSync(path);
    const bytes = readFileSync(path);
    // Breaks the header's JSON in the middle of the file, same length.
    const at = bytes.indexOf('"type"', 1);
    bytes[at] = 0x7b;
    writeFileSync(path, bytes);
    utimesSync(path, before.atime, before.mtime);
    expect(statSync(path).size).toBe(before.size);
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
    const after = await scan(open(dir), path);
    expect(after.cached).toBe(false);
    expect(after.findings).toBeGreaterThan(0);
  });

  it('does not remember a file changed just before it was read (the file times\' clock is coarse)', async () => {
    const dir = folder();
    const path = join(folder(), 'fresh.jsonl');
    writeFileSync(path, readFileSync(join(FIXTURES, 'pi/healthy.jsonl')));
    const cache = new ScanCache({ dir, key: KEY, warn: () => {}, racyMs: 60_000 });
    await scan(cache, path);
    expect((await scan(open(dir), path)).cached).toBe(false);
  });

  it('leaves the cache aside for a file with a lock beside it (a running agent can excuse a finding)', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    await scan(open(dir), path);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid }));
    expect((await scan(open(dir), path)).cached).toBe(false);
  });

  it('ignores a corrupt, truncated or other version\'s cache file with one warning, and replaces it', async () => {
    const path = await copied('pi/healthy.jsonl');
    for (const body of ['{"transcriptDoctorCache":1,"tool":"', 'not json', JSON.stringify({ transcriptDoctorCache: 1, tool: '0.0.0-other', key: cacheKey({ ...KEY, strategy: 'metadata' }), entries: {} }), JSON.stringify({ transcriptDoctorCache: 1, tool: version, key: cacheKey({ ...KEY, strategy: 'metadata' }), entries: { a: { stamp: 'x' } } })]) {
      const dir = folder();
      await scan(open(dir), path);
      writeFileSync(shardFile(dir, path), body);
      const warnings: string[] = [];
      const cache = open(dir, warnings);
      expect(await scan(cache, path)).toEqual({ findings: 0, format: 'pi', cached: false });
      expect(await scan(cache, path)).toEqual({ findings: 0, format: 'pi', cached: false });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/checking without it$/);
      expect(await scan(open(dir), path)).toEqual({ findings: 0, format: 'pi', cached: true });
    }
  });

  it('never writes through a cache path that is not a regular file (a folder, a FIFO, a link)', async () => {
    const path = await copied('pi/healthy.jsonl');
    const makers: Array<(at: string) => void> = [(at) => mkdirSync(at), (at) => execFileSync('mkfifo', [at]), (at) => execFileSync('ln', ['-s', path, at])];
    for (const make of makers) {
      const dir = folder();
      const at = shardFile(dir, path);
      make(at);
      const warnings: string[] = [];
      expect((await scan(open(dir, warnings), path)).findings).toBe(0);
      expect(warnings).toHaveLength(1);
      expect(readFileSync(path, 'utf8')).toBe(readFileSync(join(FIXTURES, 'pi/healthy.jsonl'), 'utf8'));
      expect(readdirSync(dir)).toEqual([cacheFileName(cacheKey({ ...KEY, strategy: 'metadata' }), entryId(path))]);
    }
  });

  it('makes its folder 0700 and its files 0600, and a cache folder that cannot be used is one warning', async () => {
    const root = folder();
    const dir = join(root, 'a', 'b');
    const path = await copied('pi/healthy.jsonl');
    await scan(open(dir), path);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(shardFile(dir, path)).mode & 0o777).toBe(0o600);
    const file = join(root, 'plain');
    writeFileSync(file, '');
    const warnings: string[] = [];
    expect((await scan(open(file, warnings), path)).cached).toBe(false);
    expect(warnings).toEqual([`the cache folder ${file} is not a folder; checking without it`]);
  });

  it('keeps what two runs at once learnt, each merged into the file as the other left it', async () => {
    const dir = folder();
    const a = await copied('pi/healthy.jsonl');
    const b = await copied('codex/healthy.jsonl');
    const first = open(dir);
    const second = open(dir);
    await scan(first, a);
    await scan(second, b);
    expect(await scan(open(dir), a)).toMatchObject({ cached: true });
    expect(await scan(open(dir), b)).toMatchObject({ cached: true, format: 'codex' });
  });

  it('keys verdicts by the settings: other settings are another cache', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    await scan(open(dir), path);
    expect((await scan(open(dir, [], { command: 'test', provider: 'mistral' }), path)).cached).toBe(false);
  });

  it('with --cache-strategy content, knows a file written again with the same bytes (a CI checkout), and not one with other bytes', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    const content = (warnings: string[] = []) => new ScanCache({ dir, key: KEY, warn: (line) => warnings.push(line), strategy: 'content' });
    await scan(content(), path);
    const bytes = readFileSync(path);
    rmSync(path);
    writeFileSync(path, bytes);
    expect((await scan(content(), path)).cached).toBe(true);
    expect((await scan(open(dir), path)).cached).toBe(false);
    bytes[bytes.indexOf('"type"', 1)] = 0x7b;
    writeFileSync(path, bytes);
    const edited = await scan(content(), path);
    expect(edited.cached).toBe(false);
    expect(edited.findings).toBeGreaterThan(0);
  });

  it(`is bounded: past ${MAX_ENTRIES} files a shard, the least recently used go`, () => {
    const dir = folder();
    chmodSync(dir, 0o700);
    const entries = new Map<string, CacheEntry>(Array.from({ length: MAX_ENTRIES + 10 }, (_, i) => [`e${i}`, { stamp: STAMP, used: i, verdict: { format: 'pi' } }]));
    writeCacheFile(dir, 'verdicts-x.json', version, 'k', entries);
    const read = readCacheFile(join(dir, 'verdicts-x.json'), version, 'k');
    if (!('entries' in read)) throw new Error('unreadable');
    expect(read.entries.size).toBe(MAX_ENTRIES);
    expect(read.entries.has('e9')).toBe(false);
    expect(read.entries.has('e10')).toBe(true);
  });

  it(`is bounded in bytes: a shard holds at most ${MAX_SHARD_BYTES} bytes, the most recently used first, and no verdict over ${MAX_VERDICT_BYTES}`, () => {
    const dir = folder();
    // 300 findings of ~600 bytes: ~180 KiB a verdict, so some 23 fit in a shard.
    const findings = Array.from({ length: 300 }, (_, line) => ({ rule: 'tool-call-unanswered', severity: 'error' as const, line, pointer: '/message/content/0', message: `call ${'x'.repeat(520)} has no result` }));
    const entries = new Map<string, CacheEntry>(Array.from({ length: 40 }, (_, i) => [`e${i}`, { stamp: STAMP, used: i, verdict: { format: 'pi', findings } }]));
    entries.set('huge', { stamp: STAMP, used: 1_000, verdict: { format: 'pi', findings: [...findings, ...findings] } });
    writeCacheFile(dir, 'verdicts-x.json', version, 'k', entries);
    expect(statSync(join(dir, 'verdicts-x.json')).size).toBeLessThanOrEqual(MAX_SHARD_BYTES);
    const read = readCacheFile(join(dir, 'verdicts-x.json'), version, 'k');
    if (!('entries' in read)) throw new Error('unreadable');
    expect(read.entries.has('huge')).toBe(false);
    expect(read.entries.has('e39')).toBe(true);
    expect(read.entries.has('e0')).toBe(false);
    expect(read.entries.size).toBeGreaterThan(15);
  });

  it('reads only the shard that holds the file: what other files left in the cache costs a look-up nothing', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    await scan(open(dir), path);
    const own = shardFile(dir, path);
    const key = cacheKey({ ...KEY, strategy: 'metadata' });
    // Every other shard corrupt: were any read, the run would warn.
    for (const digit of '0123456789abcdef') {
      const other = join(dir, cacheFileName(key, digit));
      if (other !== own) writeFileSync(other, 'not json');
    }
    const warnings: string[] = [];
    expect(await scan(open(dir, warnings), path)).toMatchObject({ cached: true });
    expect(warnings).toEqual([]);
  });

  it('removes a cache file of the older one-file layout at its first save: it is never read again', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    const old = join(dir, `verdicts-${cacheKey({ ...KEY, strategy: 'metadata' }).slice(0, 24)}.json`);
    writeFileSync(old, JSON.stringify({ transcriptDoctorCache: 1, tool: version, key: 'k', entries: {} }));
    await scan(open(dir), path);
    expect(readdirSync(dir)).toEqual([cacheFileName(cacheKey({ ...KEY, strategy: 'metadata' }), entryId(path))]);
  });

  it('keeps the files of the 16 most recently written settings, and removes the rest whole', async () => {
    const dir = folder();
    const path = await copied('pi/healthy.jsonl');
    // A second file in another shard: each set of settings then has two files.
    let other = `${path}.0`;
    for (let i = 1; entryId(other)[0] === entryId(path)[0]; i++) other = `${path}.${i}`;
    writeFileSync(other, readFileSync(path));
    await sleep(SETTLE);
    for (let i = 0; i < 18; i++) {
      const cache = open(dir, [], { command: 'test', run: i });
      await scan(cache, path);
      await scan(cache, other);
      await sleep(5);
    }
    const files = readdirSync(dir).filter((name) => name.startsWith('verdicts-'));
    expect(new Set(files.map((name) => name.replace(/-[0-9a-f]\.json$/, ''))).size).toBe(16);
    expect(files).toHaveLength(32);
    expect((await scan(open(dir, [], { command: 'test', run: 17 }), path)).cached).toBe(true);
    expect((await scan(open(dir, [], { command: 'test', run: 0 }), path)).cached).toBe(false);
  });
});

const STAMP = { dev: '1', ino: '1', size: '1', mtimeNs: '1', ctimeNs: '1', ends: 'ab' };

/** Every string value in a parsed transcript. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(textsOf);
  return [];
}
