import type { Command } from 'commander';
import { withRewriteOptions } from './command-options.js';

/** Adds `canonicalize` to the program: its arguments, options and help; the command itself is in canonicalize.ts, loaded when it runs. */
export function addCanonicalizeCommand(program: Command, setExitCode: (code: number) => void): void {
  withRewriteOptions(
    program
      .command('canonicalize')
      .description('Rewrite legacy and foreign tool-call shapes to the canonical form; everything else is kept exactly.')
      .option('--check', 'write nothing; list every line that would change and exit 1 if any (for CI)'),
    `
Exit codes: 0 canonical (or made so), 1 lines left that cannot be settled without guessing (with
--check: lines that would change), 2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor canonicalize --check 'sessions/**/*.jsonl'
  $ transcript-doctor canonicalize --in-place session.jsonl
  $ cat legacy.jsonl | transcript-doctor canonicalize - | transcript-doctor repair - > fixed.jsonl`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./canonicalize.js')).canonicalizeCommand(paths, options));
  });
}
