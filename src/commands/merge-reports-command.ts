import type { Command } from 'commander';
import { withReportOptions } from './command-options.js';

/** Adds `merge-reports` to the program: its arguments, options and help; the command itself is in merge-reports.ts, loaded when it runs. */
export function addMergeReportsCommand(program: Command, setExitCode: (code: number) => void): void {
  const merge = program
    .command('merge-reports')
    .description('Merge JSON reports (from --shard runs) into any reporter, with the summary and exit code of one run over everything.')
    .argument('<reports...>', 'JSON reports written by scan -r json (or repair, canonicalize, verify)')
    .option('--max-warnings <n>', 'exit 1 when more than n warnings are found in all reports together')
    .option('--exit-zero', 'exit 0 whatever is found (unreadable or mismatched reports still exit 2)');
  withReportOptions(merge, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
Files are listed in path order. Refused with exit 2: a report that is not readable JSON or not a
transcript-doctor report, reports from different versions or rule sets, and a file in two reports.

Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings, or a FAIL verdict), 2 usage error.

Examples:
  $ transcript-doctor merge-reports shard-*.json -r sarif -o merged.sarif
  $ transcript-doctor merge-reports a.json b.json -r junit --output-file junit:junit.xml -r stylish`,
    )
    .action(async (reports: string[], options) => {
      setExitCode(await (await import('./merge-reports.js')).mergeReportsCommand(reports, options));
    });
}
