import { expandInputs, isDirectory, standardLocations, type Input } from '../io/inputs.js';
import { reason, UserError } from '../errors.js';
import { formats } from '../formats/registry.js';
import { loadProjectConfig } from '../io/config.js';
import { parseProviderId } from '../providers/provider-id.js';
import { newSince, readBaseline, writeBaseline } from '../pipeline/baseline.js';
import { configureRules } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import type { FileReport } from '../pipeline/finding.js';
import { scanSource } from '../pipeline/scan.js';
import { scanFiles } from '../pipeline/scan-pool.js';
import { availableParallelism } from 'node:os';
import { createProgress } from './progress.js';
import { errorsOnly, exitCode, exitPolicy, type ExitOptions } from './output.js';
import { emitReports, planReports } from './reporting.js';

export interface ScanOptions extends ExitOptions {
  format?: string;
  config?: string;
  provider?: string;
  baseline?: string;
  writeBaseline?: string;
  jobs?: string;
  reporter?: string[];
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
}

/** `transcript-doctor scan`: returns the exit code. */
export async function scanCommand(paths: readonly string[], options: ScanOptions): Promise<number> {
  const destinations = await planReports(options);
  const policy = exitPolicy(options);
  const format = options.format === undefined ? undefined : formats.find((candidate) => candidate.name === options.format);
  const config = loadProjectConfig(options.config, allRules.map((rule) => rule.meta.id));
  const rules = configureRules(allRules, config.rules);
  const provider = options.provider === undefined ? config.provider : parseProviderId(options.provider, '--provider');
  const known = options.baseline === undefined ? undefined : await readBaseline(options.baseline);
  const inputs = paths.length > 0 ? await expandInputs(paths, config.ignores) : await defaultInputs(config.ignores);
  const jobs = options.jobs === undefined ? availableParallelism() : positiveInteger(options.jobs, '--jobs');
  const progress = await createProgress('Scanning');
  const files = inputs.filter((input) => input.kind === 'file').map((input) => input.path);
  const reports: FileReport[] = [];
  let unreadable = 0;
  try {
    const outcomes = await scanFiles(files, { jobs, rules, overrides: config.rules, format, provider, onDone: (done) => progress.update(done, inputs.length) });
    let next = 0;
    for (const input of inputs) {
      const outcome = input.kind === 'stdin' ? await scanSource('-', process.stdin, rules, format, provider).then((report) => ({ report }), (error: Error) => ({ error })) : outcomes[next++]!;
      if ('report' in outcome) {
        reports.push(outcome.report);
      } else {
        unreadable += 1;
        progress.stop();
        process.stderr.write(`transcript-doctor: cannot read ${input.path}: ${reason(outcome.error)}\n`);
      }
    }
  } finally {
    progress.stop();
  }
  if (options.writeBaseline !== undefined) await writeBaseline(options.writeBaseline, reports);
  const current = known === undefined ? reports : newSince(reports, known);
  const shown = options.quiet ? errorsOnly(current) : current;
  await emitReports(destinations, shown, { color: options.color });
  return exitCode(current, unreadable, policy);
}

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UserError(`${flag} must be a whole number ≥ 1, not "${text}"`);
  return value;
}

/** With no paths: the standard session folders that exist here, saying which were searched. */
export async function defaultInputs(ignores: readonly string[] = []): Promise<Input[]> {
  const locations = await standardLocations();
  const existing: string[] = [];
  for (const location of locations) if (await isDirectory(location)) existing.push(location);
  if (existing.length === 0) {
    throw new UserError(`no session folders found (searched ${locations.join(', ')}); pass files or folders to scan`);
  }
  process.stderr.write(`Searching ${existing.join(', ')}\n`);
  const inputs: Input[] = [];
  for (const location of existing) {
    const found = await expandInputs([location], ignores).catch(() => []);
    inputs.push(...found);
  }
  return inputs;
}
