import { UserError } from '../errors.js';
import { loadProjectConfig, type ProjectConfig } from '../io/config.js';
import { rules as allRules } from '../rules/index.js';
import { expandInputs, type Input } from '../io/inputs.js';
import type { FileReport } from '../pipeline/finding.js';
import { spoolStdin } from '../io/spool.js';
import { defaultCacheDir, VerdictCache } from '../verify/llm/cache.js';
import { resolveModel } from '../verify/llm/model-spec.js';
import { readRules, verifyFile } from '../verify/run.js';
import { DEFAULT_SETTINGS, loadVerifierConfig, type VerifySettings } from '../verify/settings.js';
import { defaultInputs } from './scan.js';
import { createProgress } from './progress.js';
import { errorsOnly } from './output.js';
import { emitReports, planReports } from './reporting.js';

export interface VerifyOptions {
  model?: string;
  config?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  all?: boolean;
  heartbeat?: boolean;
  keywords?: string;
  messagingTools?: string;
  rules?: string[];
  timeout?: string;
  retries: string;
  concurrency: string;
  cache: boolean;
  cacheDir?: string;
  failClosed?: boolean;
  reporter?: string[];
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
}

/** `transcript-doctor verify`: returns the exit code. */
export async function verifyCommand(paths: readonly string[], options: VerifyOptions): Promise<number> {
  const destinations = await planReports(options);
  // --config here is OpenClaw's config (as in the seed); the project config is found upwards.
  const project = loadProjectConfig(undefined, allRules.map((rule) => rule.meta.id));
  const settings = await resolveSettings(options, project);
  if (settings.model === undefined) throw new UserError('no verifier model: pass --model <provider>/<model> or set agents.defaults.verifier.model in the OpenClaw config');
  const model = resolveModel(settings.model, { baseUrl: options.baseUrl, apiKeyEnv: options.apiKeyEnv });
  const concurrency = positive(options.concurrency, '--concurrency');
  const retries = count(options.retries, '--retries');
  const rules = options.rules === undefined ? undefined : await readRules(options.rules).catch((error: Error) => {
    throw new UserError(`cannot read rules: ${error.message}`);
  });
  const inputs: Input[] = paths.length > 0 ? await expandInputs(paths, project.ignores) : await defaultInputs(project.ignores);
  const cache = new VerdictCache(options.cache ? (options.cacheDir ?? defaultCacheDir()) : undefined);
  let announced = false;
  const judgeOptions = {
    settings,
    model,
    cache,
    rules,
    timeoutMs: settings.timeoutSeconds * 1000,
    maxRetries: retries,
    schedule: limiter(concurrency),
    beforeFirstRequest: () => {
      if (announced) return;
      announced = true;
      process.stderr.write(`transcript-doctor: sending transcript text to ${model.baseUrl} (${model.provider}/${model.model}); secrets are masked first\n`);
    },
  };

  const progress = await createProgress('Verifying');
  const reports: FileReport[] = [];
  try {
    for (const [i, input] of inputs.entries()) {
      progress.update(i, inputs.length);
      reports.push(input.kind === 'stdin' ? await spoolStdin(process.stdin, (path) => verifyFile(path, '-', judgeOptions)) : await verifyFile(input.path, input.path, judgeOptions));
    }
  } finally {
    progress.stop();
  }
  const shown = options.quiet ? errorsOnly(reports).map((report) => ({ ...report, verdicts: report.verdicts?.filter((v) => v.verdict !== 'PASS' && v.verdict !== 'SKIPPED') })) : reports;
  await emitReports(destinations, shown, { color: options.color });
  const verdicts = reports.flatMap((report) => report.verdicts ?? []);
  // Fail-open as in the seed: a judge that errs does not fail the run, unless asked to.
  if (options.failClosed && verdicts.some((v) => v.verdict === 'ERROR')) return 2;
  return verdicts.some((v) => v.verdict === 'FAIL') ? 1 : 0;
}

/** Flags win over the OpenClaw config, which wins over the seed's defaults. */
async function resolveSettings(options: VerifyOptions, project: ProjectConfig): Promise<VerifySettings> {
  const config = await loadVerifierConfig(options.config);
  const settings: VerifySettings = { ...DEFAULT_SETTINGS, ...config, ...(project.verify as Partial<VerifySettings>) };
  if (options.model !== undefined) settings.model = options.model;
  if (options.all) settings.verifyAll = true;
  if (options.heartbeat) settings.verifyHeartbeat = true;
  if (options.keywords !== undefined) settings.triggerKeywords = list(options.keywords);
  if (options.messagingTools !== undefined) settings.messagingTools = list(options.messagingTools);
  if (options.timeout !== undefined) settings.timeoutSeconds = positive(options.timeout, '--timeout');
  return settings;
}

function list(text: string): string[] {
  return text.split(',').map((item) => item.trim()).filter(Boolean);
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UserError(`${flag} must be a positive number, not "${text}"`);
  return value;
}

function count(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UserError(`${flag} must be a whole number ≥ 0, not "${text}"`);
  return value;
}

/** At most `n` tasks at once; the rest wait their turn in order. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
