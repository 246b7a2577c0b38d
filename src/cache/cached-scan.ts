import type { FileReport } from '../pipeline/finding.js';
import type { CachedVerdict } from './cache-file.js';
import type { Lookup, ScanCache } from './scan-cache.js';

type Outcome = { report: FileReport } | { error: Error };

/** Longer than this, a message may carry more than ids and names (a pasted "id"): its file is not remembered. */
const MAX_MESSAGE = 500;

/**
 * Scans `paths` with `scan`, except the files the cache knows unchanged since it saw them: their
 * report is the one it gave then. What the scan finds is remembered. Outcomes come back in the
 * order of `paths`; `done` is told of each. `timeline`: reports draw the conversation around
 * findings (html), words of the transcript that are never cached, so only clean files are answered.
 */
export async function scanThroughCache<O extends Outcome>(
  cache: ScanCache | undefined,
  paths: readonly string[],
  scan: (paths: readonly string[], done: (at: number) => void) => Promise<O[]>,
  done: (at: number) => void = () => {},
  timeline = false,
): Promise<Array<O | { report: FileReport }>> {
  if (cache === undefined) return scan(paths, done);
  const lookups: Lookup[] = await Promise.all(paths.map((path) => cache.lookup(path)));
  const outcomes: Array<O | { report: FileReport }> = new Array(paths.length);
  const missed: number[] = [];
  for (const [at, lookup] of lookups.entries()) {
    if (!lookup.hit || (timeline && (lookup.verdict.findings?.length ?? 0) > 0)) missed.push(at);
    else {
      outcomes[at] = { report: reportOf(paths[at]!, lookup.verdict) };
      done(at);
    }
  }
  const scanned = missed.length === 0 ? [] : await scan(missed.map((at) => paths[at]!), (k) => done(missed[k]!));
  for (const [k, outcome] of scanned.entries()) {
    const at = missed[k]!;
    outcomes[at] = outcome;
    const lookup = lookups[at]!;
    const verdict = 'report' in outcome ? verdictOf(outcome.report) : undefined;
    if (!lookup.hit && verdict !== undefined) lookup.remember(verdict);
  }
  cache.save();
  return outcomes;
}

/** The report a scan gave, field for field in the order scan writes them. */
function reportOf(path: string, verdict: CachedVerdict): FileReport {
  const report: FileReport = { path, format: verdict.format, findings: verdict.findings ?? [] };
  if (verdict.size !== undefined) report.size = verdict.size;
  return report;
}

/** What is kept of a report: all of it but the path and a timeline; undefined for one not to keep. */
function verdictOf(report: FileReport): CachedVerdict | undefined {
  if (report.timeline !== undefined || report.findings.some((finding) => finding.message.length > MAX_MESSAGE)) return undefined;
  const verdict: CachedVerdict = { format: report.format };
  if (report.findings.length > 0) verdict.findings = report.findings;
  if (report.size !== undefined) verdict.size = report.size;
  return verdict;
}
