import { type Command, InvalidArgumentError, Option } from 'commander';
import { formats } from '../formats/registry.js';
import { reporterNames } from '../report/index.js';
import { SHOWN_PER_RULE } from '../report/fold.js';
import { PROVIDER_IDS } from '../providers/provider-id.js';
import { sessionAgents } from '../io/sessions/index.js';
import { collect, offering } from './offered-values.js';

// The options several commands share, made the same way for each (names, help, the values offered to completion).

const REPORTER_HELP = `report format, repeatable: ${reporterNames.join(', ')} (default: stylish)`;
export const PROVIDER_HELP = `judge every transcript against this provider's contract (${PROVIDER_IDS.join(', ')}); default: config "provider", else the provider each file talks to`;
export const PRINT_CONFIG_HELP = 'print the project config in effect (the file it came from, every rule\'s severity, ignores) as JSON, and check nothing';
export const KEEP_BACKUPS_HELP = 'with --in-place: keep the newest n backups of each file, removing older ones once the write has succeeded (default: config "keepBackups", else 3)';
const OUTPUT_FILE_HELP = 'write the report to a file instead of standard output; with several reporters, <reporter>:<path>';

/** The agents whose settings file holds our hook commands. */

/** The scan cache (docs/cache.md): on unless --no-cache. */
export function withCacheOptions(command: Command): Command {
  return command
    .option('--no-cache', 'check every file afresh, without reading or writing the scan cache (docs/cache.md)')
    .option('--cache-dir <dir>', 'where the scan cache lives (default: $XDG_CACHE_HOME/transcript-doctor/scan, else ~/.cache/transcript-doctor/scan)');
}

/** Reading the list of transcripts from a file or standard input. */
export function withListOptions(command: Command, listsOut = false): Command {
  return command
    .option('--files-from <file>', 'also read the paths to check from this file, one per line (- for standard input); an empty list checks nothing')
    .option('-0, --null', `with --files-from: the list is NUL-separated (find -print0)${listsOut ? '; with -l: write the list NUL-separated (xargs -0)' : ''}`)
    .option('--hidden', HIDDEN_HELP);
}

export const HIDDEN_HELP = 'also search hidden folders and files inside the folders given (the agents\' own, .claude, .codex, .gemini, .copilot, .qwen, .openclaw and .pi, are searched without it)';

/** `--agent`: the transcript format, for a file too damaged or too unusual to detect. */
export function agentOption(): Option {
  const names = formats.map((format) => format.name);
  return offering(new Option('--agent <name>', `transcript format (the agent that wrote it), instead of detecting it per file: ${names.join(', ')}`).argParser(agentName(names)), names);
}

/** `--provider`: the contract to judge against, checked by the command. */
export function providerOption(): Option {
  return offering(new Option('--provider <id>', PROVIDER_HELP), PROVIDER_IDS);
}

/** The short names people type for agents whose full names say which program they are: their commands (claude for claude-code), from the agents table. */
const SHORT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(sessionAgents.flatMap((agent) => agent.commands.filter((command) => command !== agent.name).map((command) => [command, agent.name])));

/** An agent's full name for the short one; any other name as it is, for the command to judge. */
export const fullName = (value: string): string => SHORT_NAMES[value] ?? value;

/** An agent's name as every command takes it: its full name, or the short one (gemini for gemini-cli). */
export function agentName(names: readonly string[]): (value: string) => string {
  return (value) => {
    const name = fullName(value);
    if (!names.includes(name)) throw new InvalidArgumentError(`Allowed choices are ${names.join(', ')}.`);
    return name;
  };
}

/** The report options every command has; -f/--format and --output-format are ESLint's and Ruff's names for -r. */
export function withReportOptions(command: Command, quietHelp: string, outputFileFlags: string): Command {
  return command
    .addOption(offering(new Option('-r, --reporter <name>', REPORTER_HELP).argParser(collect), reporterNames))
    .addOption(offering(new Option('-f, --format <name>', 'report format, as ESLint names it (same as -r)').argParser(collect), reporterNames))
    .addOption(offering(new Option('--output-format <name>', 'report format, as Ruff names it (same as -r)').argParser(collect), reporterNames))
    .option(outputFileFlags, OUTPUT_FILE_HELP, collect)
    .option('-q, --quiet', quietHelp)
    .option('--all-findings', `stylish: list every finding (by default a file shows the first ${SHOWN_PER_RULE} of a rule, then "… and N more <rule> in this file")`)
    .option('--statistics', 'stylish: print a count of findings per rule (count, rule, severity, fix), most frequent first, instead of the findings')
    .option('--no-color', 'disable colours (also: NO_COLOR)');
}

/** Options `repair` and `canonicalize` share: where the rewritten transcript goes, and the report. */
export function withRewriteOptions(command: Command, help: string): Command {
  command
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl), globs, or - for standard input')
    .option('-i, --in-place', 'replace each file (atomically, keeping a .bak-<timestamp> copy)')
    .option('--no-backup', 'with --in-place: keep no backup copy')
    .option('--keep-backups <n>', KEEP_BACKUPS_HELP)
    .option('--force', 'with --in-place: write even if a live agent holds the lock file')
    .option('--out <path>', 'write the rewritten transcript here: a file, or a folder (ending in / or existing; always for several inputs), or - for standard output')
    .addOption(new Option('--output <path>', 'old name of --out').hideHelp())
    .option('--dry-run', 'show what would change, write nothing')
    .option('--diff', 'print a unified diff of the lines that would change, write nothing; exit 1 when a file would change')
    .addOption(agentOption())
    .option('-c, --config <file>', 'project config (default: the nearest transcript-doctor.config.json)')
    .option('--print-config', PRINT_CONFIG_HELP);
  withListOptions(command);
  // -o is the report file here too, as in every command (and in ESLint and Ruff); --out takes the transcript.
  return withReportOptions(command, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
With one input and no --in-place, --out or --dry-run, the result goes to standard output and
the report to standard error.
${help}`,
    );
}
