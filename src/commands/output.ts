import { writeFile } from 'node:fs/promises';
import { reason, UserError } from '../errors.js';
import type { FileReport } from '../pipeline/finding.js';

/** Where report text goes: a file when asked, else standard output. */
export async function writeReport(text: string, outputFile: string | undefined): Promise<void> {
  if (outputFile === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    await writeFile(outputFile, text);
  } catch (error) {
    throw new UserError(`cannot write ${outputFile}: ${reason(error)}`);
  }
}

/** Colour only for a terminal, and never when NO_COLOR is set or --no-color was given. */
export function useColor(
  flag: boolean,
  outputFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  stream: NodeJS.WriteStream = process.stdout,
): boolean {
  if (!flag || outputFile !== undefined) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** `--quiet`: only error-severity findings are shown. */
export function errorsOnly(reports: readonly FileReport[]): FileReport[] {
  return reports.map((report) => ({ ...report, findings: report.findings.filter((finding) => finding.severity === 'error') }));
}

/** `--max-warnings` and `--exit-zero` as given on the command line. */
export interface ExitOptions {
  maxWarnings?: string;
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
  if (options.maxWarnings !== undefined) {
    const limit = Number(options.maxWarnings);
    if (!Number.isInteger(limit) || limit < 0) throw new UserError(`--max-warnings must be a whole number ≥ 0, not "${options.maxWarnings}"`);
    policy.maxWarnings = limit;
  }
  return policy;
}

/** 2 when some input failed, else 1 when an error (or too many warnings) is left, else 0. */
export function exitCode(reports: readonly FileReport[], failed: number, policy: ExitPolicy = { exitZero: false }): number {
  if (failed > 0) return 2;
  if (policy.exitZero) return 0;
  const findings = reports.flatMap((report) => report.findings);
  if (findings.some((finding) => finding.severity === 'error')) return 1;
  if (policy.maxWarnings === undefined) return 0;
  return findings.filter((finding) => finding.severity === 'warning').length > policy.maxWarnings ? 1 : 0;
}
