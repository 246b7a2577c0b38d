import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { version } from '../version.js';

/** The name a file is remembered by: a hash of its absolute path, so the cache holds no names either. */
export function entryId(path: string): string {
  return createHash('sha256').update(resolve(path)).digest('hex').slice(0, 32);
}

/** One hash of the tool's version and every setting that can change a verdict. */
export function cacheKey(settings: Record<string, unknown>): string {
  const sorted = Object.keys(settings)
    .sort()
    .map((name) => [name, settings[name] ?? null]);
  return createHash('sha256').update(JSON.stringify([version, sorted])).digest('hex');
}
