import type { Command } from 'commander';
import { PROVIDER_HELP, withRewriteOptions } from './command-options.js';

/** Adds `slim` to the program: its arguments, options and help; the command itself is in slim.ts, loaded when it runs. */
export function addSlimCommand(program: Command, setExitCode: (code: number) => void): void {
  withRewriteOptions(
    program
      .command('slim')
      .description('Make a session too big to resume fit again: images over a limit, old images and old tool results give way to stubs, least loss first, until the replayed request fits.')
      .option('--target <tokens|N%>', 'the size the replayed request must come under: tokens, or a share of the model\'s context window (default: 60% of the window, and under every other limit)')
      .option('--keep-turns <n>', 'the latest n user turns are never slimmed (default 2); the latest turn is always kept byte for byte')
      .option('--provider <id>', PROVIDER_HELP),
    `
Exit codes: 0 every output fits and is clean, 1 a session still does not fit (or errors remain),
2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor slim --dry-run latest
  $ transcript-doctor slim --in-place <id>
  $ transcript-doctor slim --target 60% --out slim.jsonl <id>`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./slim.js')).slimCommand(paths, options));
  });
}
