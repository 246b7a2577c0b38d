import { Command, CommanderError } from 'commander';
import { UserError } from './errors.js';
import { argvWithBytes } from './io/argv.js';
import { terminalText } from './report/terminal-text.js';
import { version } from './version.js';
import { linkDocPages } from './commands/doc-pages.js';
import { addCompletionCommand } from './commands/completion-command.js';
import { addScanCommand } from './commands/scan-command.js';
import { addRepairCommand } from './commands/repair-command.js';
import { addSlimCommand } from './commands/slim-command.js';
import { addCanonicalizeCommand } from './commands/canonicalize-command.js';
import { addVerifyCommand } from './commands/verify-command.js';
import { addMergeReportsCommand } from './commands/merge-reports-command.js';
import { addExplainCommand } from './commands/explain-command.js';
import { addRulesCommand } from './commands/rules-command.js';
import { addHooksCommand } from './commands/hooks-command.js';
import { addHookCommand } from './commands/hook-command.js';
import { addRestoreCommand } from './commands/restore-command.js';
import { addLocateCommand } from './commands/locate-command.js';
import { addGuardCommand } from './commands/guard-command.js';

/** Commands load their modules when run: `scan` does not pay for the judge or the writer. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('transcript-doctor')
    .description('Find and repair broken agent session transcripts (pi / OpenClaw, Claude Code, Codex, Gemini CLI and Qwen Code).')
    .version(version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  // In the order `--help` lists them.
  addScanCommand(program, setExitCode);
  addRepairCommand(program, setExitCode);
  addSlimCommand(program, setExitCode);
  addCanonicalizeCommand(program, setExitCode);
  addVerifyCommand(program, setExitCode);
  addMergeReportsCommand(program, setExitCode);
  addExplainCommand(program, setExitCode);
  addRulesCommand(program, setExitCode);
  addHooksCommand(program, setExitCode);
  addHookCommand(program, setExitCode);
  addRestoreCommand(program, setExitCode);
  addLocateCommand(program, setExitCode);
  addGuardCommand(program, setExitCode);
  addCompletionCommand(program, setExitCode);
  linkDocPages(program);
  return program;
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  program.commands.forEach((command) => command.exitOverride());
  try {
    await program.parseAsync(argvWithBytes(argv));
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    const message = error instanceof UserError ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`);
    if (error instanceof UserError) for (const line of error.details) process.stderr.write(`  ${terminalText(line)}\n`);
    if (process.env.TRANSCRIPT_DOCTOR_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return 2;
  }
}
