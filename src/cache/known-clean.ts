import type { ScanCache } from './scan-cache.js';

/**
 * Runs `check` (a repair in place, whose undefined is "nothing was wrong, nothing written")
 * unless the cache knows the file clean and unchanged since; a clean outcome is remembered
 * against the file as it was before the check, which, having written nothing, it still is.
 */
export async function unlessKnownClean(cache: ScanCache | undefined, path: string, check: () => Promise<string | undefined>): Promise<string | undefined> {
  if (cache === undefined) return check();
  const lookup = await cache.lookup(path);
  if (lookup.hit) return undefined;
  const line = await check();
  if (line === undefined) {
    lookup.remember(null);
    cache.save();
  }
  return line;
}
