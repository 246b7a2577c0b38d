import type { FileReport } from '../pipeline/finding.js';
import { wholeNumber } from './numbers.js';

/** `--quiet`: only error-severity findings are shown. */
export function errorsOnly(reports: readonly FileReport[]): FileReport[] {
  return reports.map((report) => ({ ...report, findings: report.findings.filter((finding) => finding.severity === 'error') }));
}

/** `--max-warnings` and `--exit-zero` as given on the command line. */
export interface ExitOptions {
  maxWarnings?: string | number;
  exitZero?: boolean;
}

export interface ExitPolicy {
  /** Exit 1 when more warnings than this are left. */
  maxWarnings?: number;
  /** Exit 0 whatever is found; usage and I/O errors still exit 2. */
  exitZero: boolean;
}

/** Checked before any work, so a typo is a usage error rather than a surprise at the end. */
export function exitPolicy(options: ExitOptions): ExitPolicy {
  const policy: ExitPolicy = { exitZero: options.exitZero ?? false };
  if (options.maxWarnings !== undefined) policy.maxWarnings = wholeNumber(options.maxWarnings, '--max-warnings', 0);
  return policy;
}

/**
 * The reports that fail a run: those with an error, and, once the warnings of the whole run are
 * more than --max-warnings, those with a warning too. `scan -l` lists exactly these; --exit-zero
 * changes the exit code only, not which files fail.
 */
export function failingReports(reports: readonly FileReport[], policy: ExitPolicy = { exitZero: false }): FileReport[] {
  const has = (report: FileReport, severity: string) => report.findings.some((finding) => finding.severity === severity);
  const warnings = reports.reduce((sum, report) => sum + report.findings.filter((finding) => finding.severity === 'warning').length, 0);
  const warningsFail = policy.maxWarnings !== undefined && warnings > policy.maxWarnings;
  return reports.filter((report) => has(report, 'error') || (warningsFail && has(report, 'warning')));
}

/** 2 when some input failed, else 1 when an error (or too many warnings) is left, else 0. */
export function exitCode(reports: readonly FileReport[], failed: number, policy: ExitPolicy = { exitZero: false }): number {
  if (failed > 0) return 2;
  if (policy.exitZero) return 0;
  return failingReports(reports, policy).length > 0 ? 1 : 0;
}

/** `scan -l` answers like `grep -l`: 0 when it listed a file, 1 when it listed none, 2 when a file could not be read. */
export function listExitCode(listed: number, failed: number, policy: ExitPolicy = { exitZero: false }): number {
  if (failed > 0) return 2;
  if (policy.exitZero) return 0;
  return listed > 0 ? 0 : 1;
}
