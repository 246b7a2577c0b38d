import { Argument, type Command } from 'commander';
import { SHELLS } from '../report/completion/shells.js';
import { offering } from './offered-values.js';

/**
 * Adds `completion <shell>` to the program. Its action is handed the program itself, so the
 * script it prints covers whatever commands the program has by then.
 */
export function addCompletionCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish), made from the commands themselves.')
    .addArgument(offering(new Argument('<shell>', SHELLS.join(', ')), SHELLS))
    .addHelpText(
      'after',
      `
Exit codes: 0 printed, 2 unknown shell.

Examples:
  $ source <(transcript-doctor completion bash)          # this shell; the line in ~/.bashrc keeps it
  $ transcript-doctor completion zsh > ~/.zfunc/_transcript-doctor   # with fpath=(~/.zfunc $fpath) before compinit
  $ transcript-doctor completion fish > ~/.config/fish/completions/transcript-doctor.fish`,
    )
    .action(async (shell: string) => {
      setExitCode((await import('./completion.js')).completionCommand(shell, program));
    });
}
