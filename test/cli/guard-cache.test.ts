import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { cacheFileName } from '../../src/cache/cache-file.js';
import { cacheKey, entryId } from '../../src/cache/cache-key.js';
import { ScanCache } from '../../src/cache/scan-cache.js';
import { agentNamed } from '../../src/io/sessions/index.js';
import { repairSession } from '../../src/run/guard-sessions.js';

// Before the modules read it: a racy window of 20 ms, not 2 s, and a checkpoint of every session.
const seen = vi.hoisted(() => {
  process.env.TRANSCRIPT_DOCTOR_CACHE_RACY_MS = '20';
  process.env.TRANSCRIPT_DOCTOR_CHECKPOINT_MIN_BYTES = '0';
  return { resumed: 0 };
});
vi.mock('../../src/pipeline/load-checkpointed.js', async (original) => {
  const actual = await original<typeof import('../../src/pipeline/load-checkpointed.js')>();
  return {
    ...actual,
    loadCheckpointed: async (...args: Parameters<typeof actual.loadCheckpointed>) => {
      const loaded = await actual.loadCheckpointed(...args);
      if (loaded.resumed) seen.resumed += 1;
      return loaded;
    },
  };
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
    const written = JSON.parse(readFileSync(join(cacheDir, cacheFileName(cacheKey({ command: 'guard', format: 'pi', mode: 'discard', slim: false, strategy: 'metadata' }), entryId(session))), 'utf8'));
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

  it('reads a session that grew on from its checkpoint, writes nothing while it is clean, and repairs what an append broke from a whole read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-guard-grown-'));
    const session = join(folder, 'session.jsonl');
    const cache = { cache: true, cacheDir: join(folder, 'cache') };
    copyFileSync(HEALTHY, session);
    await sleep(60);
    const pi = agentNamed('pi')!;
    expect(await repairSession(session, pi, 'discard', false, cache)).toBeUndefined();
    expect(readdirSync(cache.cacheDir).filter((name) => name.startsWith('checkpoint-'))).toHaveLength(1);
    const line = (id: string, parentId: string, message: object) => JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-03-10T09:00:00.000Z', message: { timestamp: 1773133200000, ...message } }) + '\n';
    const reply = (id: string, parentId: string, content: object[], stopReason = 'stop') => line(id, parentId, { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason });

    // A new turn, answered: clean, read on from the checkpoint, nothing written.
    appendFileSync(session, line('grown-01', '2c3bfacd', { role: 'user', content: 'and the date?' }) + reply('grown-02', 'grown-01', [{ type: 'text', text: 'It is the 10th.' }]));
    const clean = readFileSync(session);
    expect(await repairSession(session, pi, 'discard', false, cache)).toBeUndefined();
    expect(seen.resumed).toBe(1);
    expect(readFileSync(session).equals(clean)).toBe(true);

    // A call left unanswered before the next prompt: the repair is planned on the file read whole, as without the cache.
    appendFileSync(session, reply('grown-03', 'grown-02', [{ type: 'toolCall', id: 'toolu_grown', name: 'read', arguments: { path: 'a.md' } }], 'toolUse') + line('grown-04', 'grown-03', { role: 'user', content: 'never mind' }));
    const twin = join(folder, 'twin.jsonl');
    copyFileSync(session, twin);
    await sleep(60);
    const repaired = await repairSession(session, pi, 'discard', false, cache);
    expect(repaired).toMatch(/repaired/);
    expect(await repairSession(twin, pi, 'discard', false, { cache: false })).toMatch(/repaired/);
    expect(readFileSync(session).equals(readFileSync(twin))).toBe(true);
    expect(seen.resumed).toBe(2);
  });
});
