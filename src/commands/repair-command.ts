import { type Command, Option } from 'commander';
import { providerOption, withRewriteOptions } from './command-options.js';

/** Adds `repair` to the program: its arguments, options and help; the command itself is in repair.ts, loaded when it runs. */
export function addRepairCommand(program: Command, setExitCode: (code: number) => void): void {
  withRewriteOptions(
    program
      .command('repair')
      .description('Fix transcripts so the replayed history is accepted again; unchanged lines are copied byte for byte.')
      .addOption(
        new Option('-m, --mode <mode>', 'what to do with a tool call that has no result: drop the pair, or add an error result')
          .choices(['discard', 'synthetic'])
          .default(undefined, 'discard, or $OPENCLAW_TOOL_GUARD_ABORT_MODE'),
      )
      .addOption(providerOption()),
    `
Exit codes: 0 every output is clean, 1 errors remain, 2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor repair --in-place ~/.openclaw/agents/main/sessions/<id>.jsonl
  $ transcript-doctor repair --dry-run ~/.openclaw/agents/main/sessions
  $ transcript-doctor repair --provider openai-chat session.jsonl > for-openai.jsonl
  $ cat session.jsonl | transcript-doctor repair - > fixed.jsonl`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./repair.js')).repairCommand(paths, options));
  });
}
