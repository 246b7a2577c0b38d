import { writeFile } from 'node:fs/promises';
import { UserError } from '../errors.js';

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

/** An I/O error in a few words, without a stack. */
export function reason(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    const known: Record<string, string> = {
      ENOENT: 'no such file or directory',
      EACCES: 'permission denied',
      EISDIR: 'is a directory',
      EPERM: 'operation not permitted',
    };
    return known[error.code] ?? error.code;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Colour only for a terminal, and never when NO_COLOR is set or --no-color was given. */
export function useColor(flag: boolean, outputFile: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!flag || outputFile !== undefined) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return process.stdout.isTTY === true;
}
