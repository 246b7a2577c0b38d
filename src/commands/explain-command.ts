import { type Command, Option } from 'commander';
import { HIDDEN_HELP, withCacheOptions } from './command-options.js';

/** Adds `explain` to the program: its arguments, options and help; the command itself is in explain.ts, loaded when it runs. */
export function addExplainCommand(program: Command, setExitCode: (code: number) => void): void {
  const explain = program
    .command('explain')
    .description('Go from a provider\'s HTTP 400 (or 413) error text to the session, the line and the command that fixes it: repair for the pairing family, slim for the size family.')
    .argument('<error>', 'the error text as pasted: the bare message, the JSON error body or a whole log line; - reads it from standard input')
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl, into the agents\' hidden folders) or globs to look in; default: the session folders on this machine')
    .option('--fix', 'repair the session found, as repair --in-place does (lock check, backup, atomic write); for a size error, slim it in place')
    .option('--hidden', HIDDEN_HELP)
    .addOption(new Option('-r, --reporter <name>', 'report format; json gives one document (default: stylish)').choices(['stylish', 'json']))
    .option('--no-color', 'disable colours (also: NO_COLOR)');
  withCacheOptions(explain)
    .addHelpText(
      'after',
      `
Exit codes: 0 the session was found (and, with --fix, repaired or slimmed), 1 the error is recognised
but no session matches (the output says where it looked), or --fix slimmed it and it is still over
its target, 2 unrecognised error text, usage error or refused write.

Examples:
  $ transcript-doctor explain 'messages.14: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_01GfghBCkxKjjizDvsyeWy5B'
  $ pbpaste | transcript-doctor explain -
  $ transcript-doctor explain "No tool output found for function call call_sU7XBNcR8nNV7j2rvuzYEHCP" --fix
  $ transcript-doctor explain 'prompt is too long: 215366 tokens > 200000 maximum'`,
    )
    .action(async (error: string, paths: string[], options) => {
      setExitCode(await (await import('./explain.js')).explainCommand(error, paths, options));
    });
}
