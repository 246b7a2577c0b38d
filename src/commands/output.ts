import { writeFile } from 'node:fs/promises';
import { reason, UserError } from '../errors.js';

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

