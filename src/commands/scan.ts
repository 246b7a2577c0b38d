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

export interface ScanOptions extends ExitOptions, InputListOptions {
  format?: string;
  config?: string;
  provider?: string;
  baseline?: string;
  writeBaseline?: string;
  jobs?: string;
  shard?: string;
  reporter?: string[];
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
  printConfig?: boolean;
}

/** `transcript-doctor scan`: returns the exit code. */
export async function scanCommand(paths: readonly string[], options: ScanOptions): Promise<number> {
  if (options.printConfig) return printConfig(options.config);
  const destinations = await planReports(options);
  if (options.filesWithErrors && destinations.some((destination) => destination.file === undefined) && options.reporter?.length) {
    throw new UserError('-l prints the failing paths on standard output; send reports to files with --output-file <reporter>:<path>');
  }
  const policy = exitPolicy(options);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const settings = await scanSettings(options);
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

/** With no paths: the standard session folders that exist here, saying which were searched. */
export async function defaultInputs(ignores: readonly string[] = []): Promise<Input[]> {
  const locations = await standardLocations();
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
