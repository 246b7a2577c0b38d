import { type Command, Option } from 'commander';
import { agentOption, KEEP_BACKUPS_HELP, PRINT_CONFIG_HELP, providerOption, withCacheOptions, withListOptions, withReportOptions } from './command-options.js';
import { offering } from './offered-values.js';

/** Adds `scan` to the program: its arguments, options and help; the command itself is in scan.ts, loaded when it runs. */
export function addScanCommand(program: Command, setExitCode: (code: number) => void): void {
  const scan = program
    .command('scan')
    .description('Check transcripts and report every problem, with the provider error it causes.')
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl), globs, or - for standard input; default: the pi / OpenClaw, Claude Code, Codex and Qwen Code session folders on this machine')
    .addOption(agentOption())
    .option('--fix', 'repair what scan finds, as repair --in-place does (lock check, backup, atomic write), and report what is left')
    .addOption(new Option('-m, --mode <mode>', 'with --fix: what to do with a tool call that has no result').choices(['discard', 'synthetic']))
    .option('--keep-backups <n>', KEEP_BACKUPS_HELP.replace('--in-place', '--fix'))
    .option('-c, --config <file>', 'project config (default: the nearest transcript-doctor.config.json)')
    .option('--print-config', PRINT_CONFIG_HELP)
    .addOption(providerOption())
    .option('-j, --jobs <n>', 'threads scanning files at once (default: the number of CPUs)')
    .option('--baseline <file>', 'report only findings that are not in this baseline')
    .option('--write-baseline <file>', 'record the current findings as the baseline')
    .option('--max-warnings <n>', 'exit 1 when more than n warnings are found')
    .option('--exit-zero', 'exit 0 whatever is found (usage and I/O errors still exit 2)')
    .option('-l, --files-with-errors', 'print only the paths of failing files, one per line (reports go only to --output-file), and exit like grep -l: 0 when one was listed, 1 when none; a file fails when it has an error, or a warning once the run has more than --max-warnings')
    .option('--shard <i/n>', 'scan only shard i of n: each file goes to the shard a stable hash of its path relative to the working directory picks (./a and a are the same path)');
  withCacheOptions(scan).addOption(offering(new Option('--cache-strategy <how>', 'how the cache knows a file again: metadata (default: identity, size, times and its first and last bytes) or content (every byte hashed: for CI, whose checkouts make new files of the same bytes)'), ['metadata', 'content']));
  withListOptions(scan, true);
  withReportOptions(scan, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings), 2 usage error or unreadable input; with -l, as grep -l: 0 a file was listed, 1 none.

The config's "ignores" apply to the files folder and glob searches find; a file named on the
command line or in --files-from is always checked (every command).

Examples:
  $ transcript-doctor scan                         # the session folders on this machine
  $ transcript-doctor scan ~/.openclaw/agents/main/sessions
  $ transcript-doctor scan ~/.gemini/tmp/*/chats ~/.gemini/tmp/*/checkpoint-*.json   # Gemini CLI sessions, /chat save checkpoints
  $ transcript-doctor scan 'logs/**/*.jsonl' --reporter json -o report.json
  $ cat session.jsonl | transcript-doctor scan -
  $ transcript-doctor scan --provider mistral session.jsonl   # before switching the session to Mistral
  $ transcript-doctor scan -l -0 sessions/ | xargs -0 -r transcript-doctor repair --in-place
  $ find logs -name '*.jsonl' -print0 | transcript-doctor scan --files-from - -0
  $ transcript-doctor scan logs/ --shard 2/4 -r json -o shard-2.json   # then: merge-reports shard-*.json`,
    )
    .action(async (paths: string[], options) => {
      setExitCode(await (await import('./scan.js')).scanCommand(paths, options));
    });
}
