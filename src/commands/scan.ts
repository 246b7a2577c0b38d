import { isDirectory, standardLocations, type Input } from '../io/inputs.js';
import { UserError } from '../errors.js';
import { formatPathList } from '../io/path-list.js';
import { applyBaseline, runScan, scanSettings } from '../run/scan.js';
import { parseShard } from '../run/shard.js';
import { sourcesOf } from '../run/sources.js';
import { expandInputs } from '../io/inputs.js';
import { createProgress } from './progress.js';
import { namedInputs, shardInputs, type InputListOptions } from './inputs.js';
import { errorsOnly, exitCode, exitPolicy, failingReports, listExitCode, type ExitOptions } from '../run/exit.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';
import { printConfig } from './print-config.js';
import { terminalText } from '../report/terminal-text.js';
import { agentOf, reportersOf, type FormatOptions } from './format-options.js';
import { formats } from '../formats/registry.js';

export interface ScanOptions extends ExitOptions, InputListOptions, FormatOptions {
  config?: string;
  provider?: string;
  baseline?: string;
  writeBaseline?: string;
  jobs?: string;
  shard?: string;
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
  printConfig?: boolean;
  fix?: boolean;
  mode?: string;
  keepBackups?: string;
}

/** `transcript-doctor scan`: returns the exit code. */
export async function scanCommand(paths: readonly string[], options: ScanOptions): Promise<number> {
  if (options.printConfig) return printConfig(options.config);
  if (options.fix) return scanFix(paths, options);
  if (options.mode !== undefined) throw new UserError('--mode goes with --fix (or use repair --mode)');
  if (options.keepBackups !== undefined) throw new UserError('--keep-backups goes with --fix, whose in-place writes keep backups');
  const destinations = await planReports(options);
  if (options.filesWithErrors && destinations.some((destination) => destination.file === undefined) && reportersOf(options).length > 0) {
    throw new UserError('-l prints the failing paths on standard output; send reports to files with --output-file <reporter>:<path>');
  }
  const policy = exitPolicy(options);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const settings = await scanSettings({ ...options, format: agentOf(options)?.name });
  // The HTML page draws turns around findings: only then are they laid out and read back.
  settings.extras = { ...settings.extras, timeline: destinations.some((destination) => destination.reporter.needs?.timeline === true) };
  let missing = 0;
  const named = await namedInputs(paths, options, settings.ignores, () => missing++);
  const all = named ?? (await defaultInputs(settings.ignores));
  // Every shard refuses the same writes: one over a file of another shard would destroy it all the same.
  const baseline = options.writeBaseline === undefined ? [] : [{ flag: '--write-baseline', path: options.writeBaseline }];
  await refuseWritesOverInputs([...reportWrites(destinations), ...baseline], all.map((input) => input.path));
  const inputs = shardInputs(all, shard);
  const progress = await createProgress('Scanning', inputs.map((input) => input.path));
  let result;
  try {
    result = await runScan(sourcesOf(inputs, process.stdin), settings, (index) => progress.done(index));
  } finally {
    progress.stop();
  }
  for (const failure of result.failures) process.stderr.write(`transcript-doctor: ${terminalText(failure.message)}\n`);
  const current = await applyBaseline(result.reports, settings, options.writeBaseline);
  if (options.filesWithErrors) {
    const listed = failingReports(current, policy).map((report) => report.path);
    process.stdout.write(formatPathList(listed, options.null ?? false));
    await emitReports(destinations.filter((destination) => destination.file !== undefined), options.quiet ? errorsOnly(current) : current, { color: options.color, ruleSet: settings.ruleSet });
    return listExitCode(listed.length, result.failures.length + missing, policy);
  }
  await emitReports(destinations, options.quiet ? errorsOnly(current) : current, { color: options.color, ruleSet: settings.ruleSet });
  return exitCode(current, result.failures.length + missing, policy);
}

/**
 * `scan --fix`, ESLint's and Ruff's habit: `repair --in-place` of the files named (lock check,
 * backup, atomic write), reporting what is left. Like repair, it never guesses which sessions to change.
 */
async function scanFix(paths: readonly string[], options: ScanOptions): Promise<number> {
  const clash = [options.filesWithErrors && '-l', options.shard !== undefined && '--shard', options.baseline !== undefined && '--baseline', options.writeBaseline !== undefined && '--write-baseline'].filter(Boolean);
  if (clash.length > 0) throw new UserError(`--fix rewrites the files; it does not go with ${clash.join(', ')}`);
  if (paths.length === 0 && options.filesFrom === undefined) throw new UserError('--fix needs files, folders or --files-from: it never guesses which sessions to change');
  const { repairCommand } = await import('./repair.js');
  return repairCommand(paths, { ...options, inPlace: true, backup: true });
}

/** With no paths: the standard session folders that exist here, saying which were searched. */
export async function defaultInputs(ignores: readonly string[] = []): Promise<Input[]> {
  const locations = await standardLocations(formats.map((format) => format.name));
  const existing: string[] = [];
  for (const location of locations) if (await isDirectory(location)) existing.push(location);
  if (existing.length === 0) {
    throw new UserError(`no session folders found (searched ${locations.join(', ')}); pass files or folders to scan`);
  }
  process.stderr.write(`Searching ${terminalText(existing.join(', '))}\n`);
  const inputs: Input[] = [];
  for (const location of existing) {
    const found = await expandInputs([location], ignores).catch(() => []);
    inputs.push(...found);
  }
  return inputs;
}
