import type { FileReport } from '../pipeline/finding.js';
import type { Lookup, ScanCache } from './scan-cache.js';

type Outcome = { report: FileReport } | { error: Error };

/**
 * Scans `paths` with `scan`, except the files the cache knows to be clean and unchanged: their
 * report is the one a scan gives a clean file (its path, its format, no findings). What the scan
 * finds clean is remembered. Outcomes come back in the order of `paths`; `done` is told of each.
 */
export async function scanThroughCache<O extends Outcome>(
  cache: ScanCache | undefined,
  paths: readonly string[],
  scan: (paths: readonly string[], done: (at: number) => void) => Promise<O[]>,
  done: (at: number) => void = () => {},
): Promise<Array<O | { report: FileReport }>> {
  if (cache === undefined) return scan(paths, done);
  const lookups: Lookup[] = await Promise.all(paths.map((path) => cache.lookup(path)));
  const outcomes: Array<O | { report: FileReport }> = new Array(paths.length);
  const missed: number[] = [];
  for (const [at, lookup] of lookups.entries()) {
    if (!lookup.hit) missed.push(at);
    else {
      outcomes[at] = { report: { path: paths[at]!, format: lookup.format, findings: [] } };
      done(at);
    }
  }
  const scanned = missed.length === 0 ? [] : await scan(missed.map((at) => paths[at]!), (k) => done(missed[k]!));
  for (const [k, outcome] of scanned.entries()) {
    const at = missed[k]!;
    outcomes[at] = outcome;
    const lookup = lookups[at]!;
    if (!lookup.hit && 'report' in outcome && isClean(outcome.report)) lookup.remember(outcome.report.format);
  }
  cache.save();
  return outcomes;
}

/** A report that is all a clean file's: no findings, so nothing else that a hit would have to give back. */
function isClean(report: FileReport): boolean {
  return report.findings.length === 0 && report.size === undefined && report.timeline === undefined;
}
