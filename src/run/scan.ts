import { availableParallelism } from 'node:os';
import { reason, UserError } from '../errors.js';
import type { TranscriptFormat } from '../formats/format.js';
import { formats } from '../formats/registry.js';
import { loadProjectConfig, type SeverityOverride } from '../io/config.js';
import { newSince, readBaseline, writeBaseline } from '../pipeline/baseline.js';
import type { FileReport } from '../pipeline/finding.js';
import { scanSource, type ScanExtras } from '../pipeline/scan.js';
import { scanFiles } from '../pipeline/scan-pool.js';
import { configureRules } from '../rules/configure.js';
import { ruleSetFingerprint } from '../rules/fingerprint.js';
import { rules as allRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import { parseProviderId } from '../providers/provider-id.js';
import { wholeNumber } from './numbers.js';
import { scanThroughCache } from '../cache/cached-scan.js';
import { openScanCache, type CacheInput } from '../cache/open-cache.js';
import type { ScanCache } from '../cache/scan-cache.js';
import type { Source } from './sources.js';

/** The options `scan` takes, the same on the command line (as text) and in the library. */
export interface ScanSettingsInput extends CacheInput {
  format?: string;
  config?: string;
  provider?: string;
  jobs?: string | number;
  baseline?: string;
}

export interface ScanSettings {
  format?: TranscriptFormat;
  rules: readonly Rule[];
  overrides: Record<string, SeverityOverride>;
  ignores: readonly string[];
  jobs: number;
  /** The fingerprint of `rules` (see ReportOptions.ruleSet). */
  ruleSet: () => string;
  /** Findings already known, from --baseline. */
  known?: Awaited<ReturnType<typeof readBaseline>>;
  /** What a reporter needs beyond findings (the HTML page's timeline). */
  extras?: ScanExtras;
  /** Clean verdicts of files seen before (see docs/cache.md); none with --no-cache. */
  cache?: ScanCache;
}

/** One source that could not be read, and why. */
export interface Failure {
  path: string;
  message: string;
}

export interface RunResult {
  reports: FileReport[];
  failures: Failure[];
}

/** Every option checked and every file it names read before any transcript is. */
export async function scanSettings(input: ScanSettingsInput): Promise<ScanSettings> {
  let format: TranscriptFormat | undefined;
  if (input.format !== undefined) {
    format = formats.find((candidate) => candidate.name === input.format);
    if (format === undefined) throw new UserError(`unknown format "${input.format}" (choose from: ${formats.map((f) => f.name).join(', ')})`);
  }
  const config = loadProjectConfig(input.config, allRules.map((rule) => rule.meta.id));
  const rules = configureRules(allRules, config.rules);
  const settings: ScanSettings = {
    rules,
    overrides: config.rules,
    ignores: config.ignores,
    jobs: input.jobs === undefined ? availableParallelism() : wholeNumber(input.jobs, '--jobs', 1),
    ruleSet: () => ruleSetFingerprint(rules),
  };
  if (format !== undefined) settings.format = format;
  const provider = input.provider === undefined ? config.provider : parseProviderId(input.provider, '--provider');
  if (provider !== undefined) settings.extras = { provider };
  if (config.size?.nearWindow !== undefined) settings.extras = { ...settings.extras, nearWindow: config.size.nearWindow };
  if (input.baseline !== undefined) settings.known = await readBaseline(input.baseline);
  // Everything besides a file that can change its verdict; the timeline only adds to reports with findings, which are not cached.
  // Only with the cache: the rule set's hash loads node:crypto, which a small scan without it never needs.
  const cache = input.cache !== true ? undefined : openScanCache(input, { command: 'scan', rules: settings.ruleSet(), overrides: config.rules, format: format?.name, provider, nearWindow: config.size?.nearWindow });
  if (cache !== undefined) {
    settings.cache = cache;
    const checkpoints = cache.checkpoints(format?.name);
    if (checkpoints !== undefined) settings.extras = { ...settings.extras, checkpoints };
  }
  return settings;
}

/** Scans every source, files on `settings.jobs` threads; reports in the order of `sources`. */
export async function runScan(sources: readonly Source[], settings: ScanSettings, onDone: (index: number) => void = () => {}): Promise<RunResult> {
  const fileIndexes = sources.flatMap((source, index) => (source.kind === 'file' ? [index] : []));
  const outcomes = await scanThroughCache(
    settings.cache,
    fileIndexes.map((index) => sources[index]!.path),
    (paths, done) => scanFiles(paths, { jobs: settings.jobs, rules: settings.rules, overrides: settings.overrides, format: settings.format, extras: settings.extras, onDone: (_, at) => done(at) }),
    (at) => onDone(fileIndexes[at]!),
    settings.extras?.timeline === true,
  );
  const result: RunResult = { reports: [], failures: [] };
  let next = 0;
  for (const [index, source] of sources.entries()) {
    const outcome =
      source.kind === 'stream'
        ? await scanSource('-', source.stream, settings.rules, settings.format, settings.extras).then((report) => ({ report }), (error: Error) => ({ error }))
        : outcomes[next++]!;
    if (source.kind === 'stream') onDone(index);
    if ('report' in outcome) result.reports.push(outcome.report);
    else result.failures.push({ path: source.path, message: `cannot read ${source.path}: ${reason(outcome.error)}` });
  }
  return result;
}

/** --write-baseline, then --baseline: what is reported is what is new since the baseline. */
export async function applyBaseline(reports: FileReport[], settings: ScanSettings, writeTo: string | undefined): Promise<FileReport[]> {
  if (writeTo !== undefined) await writeBaseline(writeTo, reports);
  return settings.known === undefined ? reports : newSince(reports, settings.known);
}
