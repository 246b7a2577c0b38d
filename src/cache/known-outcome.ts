import { openScanCache, type CacheInput } from './open-cache.js';
import type { ScanCache } from './scan-cache.js';

/** guard's cache: its outcomes depend on the agent's format, the repair mode and --slim. */
export function openGuardCache(input: CacheInput, format: string, mode: string, slim: boolean): ScanCache | undefined {
  return openScanCache(input, { command: 'guard', format, mode, slim });
}

/** The outcome the cache knows for an unchanged session (`line` undefined: clean), or undefined when it knows none. */
export async function knownOutcome(cache: ScanCache | undefined, path: string): Promise<{ line: string | undefined } | undefined> {
  const lookup = await cache?.lookup(path);
  return lookup?.hit === true ? { line: lookup.verdict.outcome } : undefined;
}

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
