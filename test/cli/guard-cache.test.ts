import { copyFileSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { cacheFileName } from '../../src/cache/cache-file.js';
import { cacheKey, ScanCache } from '../../src/cache/scan-cache.js';
import { agentNamed } from '../../src/io/sessions/index.js';
import { repairSession } from '../../src/run/guard-sessions.js';

// Before the modules read it: a racy window of 20 ms, not 2 s.
vi.hoisted(() => {
  process.env.TRANSCRIPT_DOCTOR_CACHE_RACY_MS = '20';
});

const HEALTHY = join(import.meta.dirname, '..', '..', 'fixtures', 'pi', 'healthy.jsonl');
/** Whole seconds, long ago: past the cache's racy window, and times utimes puts back exactly. */
const LONG_AGO = 1_700_000_000;

describe('guard and the scan cache', () => {
  it('does not read again a session found clean and unchanged, and repairs one damaged in place since (same size, same mtime)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-guard-cache-'));
    const session = join(folder, 'session.jsonl');
    const cacheDir = join(folder, 'cache');
    copyFileSync(HEALTHY, session);
    utimesSync(session, LONG_AGO, LONG_AGO);
    // The file's change time (now) must be older than the racy window too.
    await sleep(60);
    const pi = agentNamed('pi')!;
    const original = ScanCache.prototype.lookup;
    const hits: boolean[] = [];
    const spy = vi.spyOn(ScanCache.prototype, 'lookup').mockImplementation(async function (this: ScanCache, path: string) {
      const found = await original.call(this, path);
      hits.push(found.hit);
      return found;
    });
    const cache = { cache: true, cacheDir };
    expect(await repairSession(session, pi, 'discard', false, cache)).toBeUndefined();
    expect(await repairSession(session, pi, 'discard', false, cache)).toBeUndefined();
    expect(hits).toEqual([false, true]);
    const written = JSON.parse(readFileSync(join(cacheDir, cacheFileName(cacheKey({ command: 'guard', format: 'pi', mode: 'discard', slim: false, strategy: 'metadata' }))), 'utf8'));
    expect(Object.keys(written.entries)).toHaveLength(1);

    // A result's call id changed by one character: same size, mtime put back.
    const bytes = readFileSync(session);
    const at = bytes.lastIndexOf('"toolCallId":"') + '"toolCallId":"'.length;
    bytes[at] = bytes[at] === 0x5a ? 0x59 : 0x5a;
    const size = statSync(session).size;
    writeFileSync(session, bytes);
    utimesSync(session, LONG_AGO, LONG_AGO);
    expect(statSync(session).size).toBe(size);
    const line = await repairSession(session, pi, 'discard', false, cache);
    expect(line).toMatch(/repaired/);
    spy.mockRestore();
    expect(await repairSession(session, pi, 'discard', false, { cache: false })).toBeUndefined();
  });
});

