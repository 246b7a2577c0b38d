import type { ScanCache } from './scan-cache.js';

/**
 * Runs `check` (guard's repair in place of one session: the line to print about it, undefined
 * when nothing was wrong) unless the cache knows the file unchanged since it was checked: then
 * the line is the one that check gave. An outcome is remembered only when the check wrote
 * nothing (the file is as it was stamped: see ScanCache.remember), and never a failure, which
 * may not happen again.
 */
export async function unlessKnown(cache: ScanCache | undefined, path: string, check: () => Promise<string | undefined>): Promise<string | undefined> {
  if (cache === undefined) return check();
  const lookup = await cache.lookup(path);
  if (lookup.hit) return lookup.verdict.outcome;
  const line = await check();
  if (line === undefined || !line.includes('could not')) {
    lookup.remember(line === undefined ? { format: null } : { format: null, outcome: line });
    cache.save();
  }
  return line;
}
