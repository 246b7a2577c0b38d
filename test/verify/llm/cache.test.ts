import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultCacheDir, VerdictCache } from '../../../src/verify/llm/cache.js';
import type { ModelSpec } from '../../../src/verify/llm/types.js';

const model: ModelSpec = { provider: 'anthropic', model: 'claude-sonnet-4-5', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'k' };

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'td-verdict-cache-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('VerdictCache', () => {
  it('stores and returns a verdict, creating the folder on first write', async () => {
    const cache = new VerdictCache(join(root, 'nested', 'verify'));
    const key = cache.key(model, 'system', 'user');
    expect(await cache.get(key)).toBeUndefined();
    await cache.put(key, 'VERDICT: PASS\nbecause…');
    expect(await cache.get(key)).toBe('VERDICT: PASS\nbecause…');
    expect(await readdir(join(root, 'nested', 'verify'))).toEqual([`${key}.json`]);
  });

  it('keys on provider, model, system and user, not on the endpoint or key', () => {
    const cache = new VerdictCache(root);
    const key = cache.key(model, 'system', 'user');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(cache.key({ ...model, baseUrl: 'http://proxy', apiKey: 'other' }, 'system', 'user')).toBe(key);
    const others = [
      cache.key({ ...model, provider: 'bedrock' }, 'system', 'user'),
      cache.key({ ...model, model: 'claude-opus-4-1' }, 'system', 'user'),
      cache.key(model, 'system2', 'user'),
      cache.key(model, 'system', 'user2'),
      // JSON framing keeps the parts apart: moving text across the boundary changes the key.
      cache.key(model, 'systemu', 'ser'),
    ];
    expect(new Set([key, ...others]).size).toBe(6);
  });

  it('does nothing when disabled', async () => {
    const cache = new VerdictCache(undefined);
    const key = cache.key(model, 's', 'u');
    await cache.put(key, 'PASS');
    expect(await cache.get(key)).toBeUndefined();
  });

  it.each([
    ['corrupt JSON', '{"text": "PA'],
    ['a non-string text', '{"text": 42}'],
    ['null', 'null'],
  ])('answers undefined for %s', async (_, content) => {
    const cache = new VerdictCache(root);
    const key = cache.key(model, 's', 'u');
    await writeFile(join(root, `${key}.json`), content);
    expect(await cache.get(key)).toBeUndefined();
  });

  it('ignores keys that are not its own hashes rather than touching other paths', async () => {
    const cache = new VerdictCache(root);
    await cache.put('../escape', 'PASS');
    expect(await cache.get('../escape')).toBeUndefined();
    expect(await readdir(root)).toEqual([]);
  });

  it('never throws when the folder cannot be written', async () => {
    const file = join(root, 'a-file');
    await writeFile(file, '');
    const cache = new VerdictCache(join(file, 'verify'));
    const key = cache.key(model, 's', 'u');
    await expect(cache.put(key, 'PASS')).resolves.toBeUndefined();
    expect(await cache.get(key)).toBeUndefined();
  });

  it('leaves no temp files behind when a write fails at rename', async () => {
    const cache = new VerdictCache(root);
    const key = cache.key(model, 's', 'u');
    // A non-empty directory where the entry should go makes rename fail after the temp file was written.
    await mkdir(join(root, `${key}.json`, 'occupied'), { recursive: true });
    await cache.put(key, 'PASS');
    expect((await readdir(root)).sort()).toEqual([`${key}.json`]);
  });
});

describe('defaultCacheDir', () => {
  it.each([
    ['linux', { HOME: '/home/ada' }, '/home/ada/.cache/transcript-doctor/verify'],
    ['linux', { HOME: '/home/ada', XDG_CACHE_HOME: '/var/cache/ada' }, '/var/cache/ada/transcript-doctor/verify'],
    ['linux', { HOME: '/home/ada', XDG_CACHE_HOME: 'relative/cache' }, '/home/ada/.cache/transcript-doctor/verify'],
    ['darwin', { HOME: '/Users/ada' }, '/Users/ada/Library/Caches/transcript-doctor/verify'],
    ['darwin', { HOME: '/Users/ada', XDG_CACHE_HOME: '/Users/ada/.xdg' }, '/Users/ada/.xdg/transcript-doctor/verify'],
    ['win32', { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'C:\\Users\\ada\\AppData\\Local\\transcript-doctor\\verify'],
    ['win32', { USERPROFILE: 'C:\\Users\\ada' }, 'C:\\Users\\ada\\AppData\\Local\\transcript-doctor\\verify'],
  ] as const)('on %s with %j is %s', (platform, env, expected) => {
    expect(defaultCacheDir(env, platform)).toBe(expected);
  });
});
