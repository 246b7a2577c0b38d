import type { FileReport } from '../pipeline/finding.js';
import type { Verdict } from '../verify/verdict.js';

export interface ReportOptions {
  color: boolean;
  /** Rewrites only: nothing was written. */
  dryRun?: boolean;
  /** Rewrites only: what was done, for the words of the report. */
  verb?: 'repair' | 'canonicalize' | 'slim';
  /**
   * A fingerprint of the rules in effect, which the JSON document carries for merge-reports. Made
   * only by a reporter that prints it: its hash loads node:crypto, which a small scan need not.
   */
  ruleSet?: () => string;
  /** Stylish only: every finding, instead of the first few of a rule in a file and a count of the rest. */
  allFindings?: boolean;
  /** Stylish only: a count of findings per rule instead of the findings (Ruff's --statistics). */
  statistics?: boolean;
}

/** A reporter turns results into text. It never prints: the command decides where text goes. */
export type Reporter = ((reports: readonly FileReport[], options: ReportOptions) => string) & {
  /** What it shows beyond findings; a scan gathers that only when a chosen reporter needs it. */
  needs?: { timeline?: boolean };
};

export interface Summary {
  files: number;
  errors: number;
  warnings: number;
  infos: number;
}

export function summarize(reports: readonly FileReport[]): Summary {
  const summary: Summary = { files: reports.length, errors: 0, warnings: 0, infos: 0 };
  for (const report of reports) {
    for (const finding of report.findings) {
      if (finding.severity === 'error') summary.errors += 1;
      else if (finding.severity === 'warning') summary.warnings += 1;
      else summary.infos += 1;
    }
  }
  return summary;
}

/** How many answers were judged PASS, FAIL, ERROR, or skipped, over all files. */
export function verdictCounts(reports: readonly FileReport[]): { pass: number; fail: number; error: number; skipped: number } {
  const counts = { pass: 0, fail: 0, error: 0, skipped: 0 };
  for (const report of reports) {
    for (const verdict of report.verdicts ?? []) {
      if (verdict.verdict === 'PASS') counts.pass += 1;
      else if (verdict.verdict === 'FAIL') counts.fail += 1;
      else if (verdict.verdict === 'ERROR') counts.error += 1;
      else counts.skipped += 1;
    }
  }
  return counts;
}

/** A verdict as the machine-readable reporters write it: every field present, null when unknown. */
export function verdictRecord(v: Verdict) {
  return {
    line: v.line,
    verdict: v.verdict,
    category: v.category ?? null,
    feedback: v.feedback ?? null,
    model: v.model ?? null,
    latencyMs: v.latencyMs ?? null,
    cached: v.cached ?? false,
  };
}
