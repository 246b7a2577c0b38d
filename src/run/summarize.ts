import { UserError } from '../errors.js';
import { loadProjectConfig } from '../io/config.js';
import type { Summarizer } from '../pipeline/slim-rewrite.js';
import { rules as allRules } from '../rules/index.js';
import { summarizeWithModel } from '../slim/compaction/model-summary.js';
import { resolveModel } from '../verify/llm/model-spec.js';
import { maskUrlCredentials } from '../verify/llm/url-credentials.js';
import { loadVerifierConfig } from '../verify/settings.js';
import { positiveNumber, wholeNumber } from './numbers.js';

/** `slim --summarize`'s model options: named and read as `verify`'s are (docs/commands/verify.md). */
export interface SummarizeInput {
  summarize?: boolean;
  /** provider/model; default: the project config's verify.model, else OpenClaw's agents.defaults.verifier.model. */
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** Seconds per attempt (default DEFAULT_TIMEOUT_SECONDS: a summary of a long history takes longer than a verdict). */
  timeout?: string | number;
  retries?: string | number;
}

export const DEFAULT_TIMEOUT_SECONDS = 120;

/**
 * The summarizer `slim --summarize` hands its rewrite, with every option checked before any file
 * is read; undefined without --summarize (the model options alone are a mistake, said so).
 * `announce` is told once, before the first request sends transcript text.
 */
export async function prepareSummarizer(options: SummarizeInput, config: string | undefined, announce: (message: string) => void): Promise<Summarizer | undefined> {
  if (!options.summarize) {
    const given = (['model', 'baseUrl', 'apiKeyEnv', 'timeout', 'retries'] as const).filter((key) => options[key] !== undefined);
    if (given.length > 0) throw new UserError(`--${given[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is for --summarize`);
    return undefined;
  }
  const project = loadProjectConfig(config, allRules.map((rule) => rule.meta.id));
  const configured = typeof project.verify.model === 'string' ? project.verify.model : (await loadVerifierConfig(undefined)).model;
  const name = options.model ?? configured;
  if (name === undefined) throw new UserError('--summarize needs a model: pass --model <provider>/<model> or set verify.model in the project config (or agents.defaults.verifier.model in the OpenClaw config)');
  const model = resolveModel(name, { baseUrl: options.baseUrl, apiKeyEnv: options.apiKeyEnv });
  const timeoutMs = positiveNumber(options.timeout ?? DEFAULT_TIMEOUT_SECONDS, '--timeout') * 1000;
  const maxRetries = wholeNumber(options.retries ?? 2, '--retries', 0);
  let announced = false;
  return (analysis, keepFrom, read) => {
    if (!announced) announce(`sending transcript text to ${maskUrlCredentials(model.baseUrl)} (${model.provider}/${model.model}) to summarise it; secrets are masked first`);
    announced = true;
    return summarizeWithModel(analysis, keepFrom, read, { model, timeoutMs, maxRetries });
  };
}
