import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { completionScript, SHELLS, type Shell } from '../report/completion/index.js';
import { describeProgram } from './describe-program.js';

/** `transcript-doctor completion <shell>`: prints the shell's completion script for this program. Returns the exit code. */
export function completionCommand(shell: string, program: Command): number {
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UserError(`unknown shell "${shell}" (choose from: ${SHELLS.join(', ')})`);
  process.stdout.write(completionScript(shell as Shell, describeProgram(program), program.name()));
  return 0;
}
