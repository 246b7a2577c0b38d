import { UserError } from '../errors.js';
import { loadProjectConfig, type ProjectConfig } from '../io/config.js';
import { spoolStdin } from '../io/spool.js';
import type { FileReport } from '../pipeline/finding.js';
import { rules as allRules } from '../rules/index.js';
import { defaultCacheDir, VerdictCache } from '../verify/llm/cache.js';
import { resolveModel } from '../verify/llm/model-spec.js';
import { maskUrlCredentials } from '../verify/llm/url-credentials.js';
import { readRules, verifyFile, type JudgeOptions } from '../verify/run.js';
import { DEFAULT_SETTINGS, loadVerifierConfig, type VerifySettings } from '../verify/settings.js';
import { positiveNumber, wholeNumber } from './numbers.js';
import type { Source } from './sources.js';

/** The options `verify` takes, the same on the command line (as text) and in the library. */
export interface VerifySettingsInput {
  model?: string;
  /** OpenClaw's config, to read agents.defaults.verifier from. */
  config?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  all?: boolean;
  heartbeat?: boolean;
  keywords?: string | readonly string[];
  messagingTools?: string | readonly string[];
  rules?: readonly string[];
  timeout?: string | number;
  retries?: string | number;
  concurrency?: string | number;
  /** false: ignore and do not fill the verdict cache. */
  cache?: boolean;
  cacheDir?: string;
}

export interface PreparedVerify {
  judge: JudgeOptions;
  ignores: readonly string[];
}

/** Every option checked and the judge set up before any transcript is read; `announce` says where text is sent, once. */
export async function prepareVerify(options: VerifySettingsInput, announce: (message: string) => void): Promise<PreparedVerify> {
  // The project config is found upwards; `config` is OpenClaw's (as in the seed).
  const project = loadProjectConfig(undefined, allRules.map((rule) => rule.meta.id));
  const settings = await resolveSettings(options, project);
  if (settings.model === undefined) throw new UserError('no verifier model: pass --model <provider>/<model> or set agents.defaults.verifier.model in the OpenClaw config');
  const model = resolveModel(settings.model, { baseUrl: options.baseUrl, apiKeyEnv: options.apiKeyEnv });
  const concurrency = wholeNumber(options.concurrency ?? 4, '--concurrency', 1);
  const retries = wholeNumber(options.retries ?? 2, '--retries', 0);
  const rules =
    options.rules === undefined
      ? undefined
      : await readRules([...options.rules]).catch((error: Error) => {
          throw new UserError(`cannot read rules: ${error.message}`);
        });
  const cache = new VerdictCache(options.cache === false ? undefined : (options.cacheDir ?? defaultCacheDir()));
  let announced = false;
  const judge: JudgeOptions = {
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
      announce(`sending transcript text to ${maskUrlCredentials(model.baseUrl)} (${model.provider}/${model.model}); secrets are masked first`);
    },
  };
  return { judge, ignores: project.ignores };
}

/** Judges each source in turn (requests within a file run `concurrency` at once). */
export async function runVerify(sources: readonly Source[], judge: JudgeOptions, onDone: (index: number) => void = () => {}): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const [i, source] of sources.entries()) {
    reports.push(source.kind === 'stream' ? await spoolStdin(source.stream, (path) => verifyFile(path, '-', judge)) : await verifyFile(source.path, source.path, judge));
    onDone(i);
  }
  return reports;
}

/** --quiet for verify: FAIL and ERROR only. */
export function failuresOnly(reports: readonly FileReport[]): FileReport[] {
  return reports.map((report) => ({
    ...report,
    findings: report.findings.filter((finding) => finding.severity === 'error'),
    verdicts: report.verdicts?.filter((v) => v.verdict !== 'PASS' && v.verdict !== 'SKIPPED'),
  }));
}

/** Options win over the OpenClaw config, which wins over the seed's defaults. */
async function resolveSettings(options: VerifySettingsInput, project: ProjectConfig): Promise<VerifySettings> {
  const config = await loadVerifierConfig(options.config);
  const settings: VerifySettings = { ...DEFAULT_SETTINGS, ...config, ...(project.verify as Partial<VerifySettings>) };
  if (options.model !== undefined) settings.model = options.model;
  if (options.all) settings.verifyAll = true;
  if (options.heartbeat) settings.verifyHeartbeat = true;
  if (options.keywords !== undefined) settings.triggerKeywords = list(options.keywords);
  if (options.messagingTools !== undefined) settings.messagingTools = list(options.messagingTools);
  if (options.timeout !== undefined) settings.timeoutSeconds = positiveNumber(options.timeout, '--timeout');
  return settings;
}

function list(value: string | readonly string[]): string[] {
  const items = typeof value === 'string' ? value.split(',') : value;
  return items.map((item) => item.trim()).filter(Boolean);
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
