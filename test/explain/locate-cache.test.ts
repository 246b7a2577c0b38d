import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { call, Session } from '../helpers/session.js';
import { healthy, toolId } from './fake-home.js';

// Files written a moment ago are remembered in this test (the cache leaves out files changed in its last 2 s).
const scanned = vi.hoisted(() => {
  process.env.TRANSCRIPT_DOCTOR_CACHE_RACY_MS = '20';
  return { paths: [] as string[] };
});
vi.mock('../../src/pipeline/scan.js', async (original) => {
  const actual = await original<typeof import('../../src/pipeline/scan.js')>();
  return { ...actual, scanFile: (path: string, ...rest: Parameters<typeof actual.scanFile> extends [string, ...infer R] ? R : never) => (scanned.paths.push(path), actual.scanFile(path, ...rest)) };
});
const { locate } = await import('../../src/explain/locate.js');
const { recognise } = await import('../../src/explain/recognise.js');

const dir = mkdtempSync(join(tmpdir(), 'td-locate-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, session: Session): string {
  const file = join(dir, name);
  writeFileSync(file, session.jsonl());
  return file;
}

describe("explain's search through the scan cache", () => {
  const cacheDir = join(dir, 'cache');
  const reused = (seed: string) => new Session().user('go').calls(call(toolId(seed))).result(toolId(seed)).calls(call(toolId(seed))).result(toolId(seed)).reply();
  const error = recognise('messages.40.content.1: `tool_use` ids must be unique');

  it('answers an unchanged session from the cache with the same match, and scans a changed one again', async () => {
    const files = [write('a.jsonl', healthy('a', 6)), write('b.jsonl', reused('b')), write('c.jsonl', healthy('c', 6))];
    await sleep(60);
    const without = await locate(error, files, undefined, {});
    expect(scanned.paths).toHaveLength(3);
    scanned.paths.length = 0;

    const cold = await locate(error, files, undefined, { cache: true, cacheDir });
    expect(scanned.paths).toHaveLength(3);
    scanned.paths.length = 0;
    const warm = await locate(error, files, undefined, { cache: true, cacheDir });
    expect(scanned.paths).toEqual([]);
    expect(warm).toEqual(without);
    expect(cold).toEqual(without);
    expect(warm.matches.map((match) => match.file)).toEqual([files[1]]);

    // The broken session mended: it is scanned again, and no longer matches.
    write('b.jsonl', healthy('b', 6));
    await sleep(60);
    const after = await locate(error, files, undefined, { cache: true, cacheDir });
    expect(scanned.paths).toEqual([files[1]]);
    expect(after.matches).toEqual([]);
  });
});
