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

/** 2 when some input failed, else 1 when an error-severity finding is left, else 0. */
export function exitCode(reports: readonly FileReport[], failed: number): number {
  if (failed > 0) return 2;
  return reports.some((report) => report.findings.some((finding) => finding.severity === 'error')) ? 1 : 0;
}
