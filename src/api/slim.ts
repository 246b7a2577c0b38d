import { UserError } from '../errors.js';
import { slimRewrite } from '../pipeline/slim-rewrite.js';
import { parseProviderId } from '../providers/provider-id.js';
import { jsonDocument, type JsonReport } from '../report/json-document.js';
import { errorsOnly } from '../run/exit.js';
import { prepareRewrite, runRewrite } from '../run/rewrite.js';
import { resolveSources, type TranscriptInput } from '../run/sources.js';
import type { SlimOptions } from '../slim/options.js';
import { prepareSummarizer, type SummarizeInput } from '../run/summarize.js';
import { settled } from './failed.js';
import { guarded, targetOf, type RewriteOptions } from './rewrite.js';

export interface SlimApiOptions extends RewriteOptions, Omit<SlimOptions, 'provider' | 'summary'>, SummarizeInput {
  /** The provider whose limits the request must come under (default: the config's, else the one the file shows). */
  provider?: string;
  /** With summarize: told once, before the first request sends transcript text to the model. */
  onSend?: (message: string) => void;
}

/**
 * Slims transcripts until the request each replays fits its target (see src/slim/planner.ts);
 * resolves to the document `slim -r json` prints, each file with its `slim` report. Writes as
 * `repair` does: exactly one of output, inPlace, dryRun. With `summarize`, a compaction's summary
 * is written by the model `verify` talks to (model, baseUrl, apiKeyEnv as verify takes them).
 */
export function slim(input: TranscriptInput, options: SlimApiOptions = {}): Promise<JsonReport> {
  return guarded(options, async (guard) => {
    const provider = options.provider === undefined ? undefined : parseProviderId(options.provider, 'provider');
    if (options.keepTurns !== undefined && (!Number.isSafeInteger(options.keepTurns) || options.keepTurns < 0)) throw new UserError(`keepTurns must be a whole number, not ${String(options.keepTurns)}`);
    // As on the command line, a dry run asks no model: a compaction it shows has the local summary.
    const summarize = await prepareSummarizer(options, options.config, options.onSend ?? (() => {}));
    const prepared = prepareRewrite({ ...slimRewrite({ target: options.target, keepTurns: options.keepTurns, provider }, options.dryRun ? undefined : summarize), provider }, options.config);
    const sources = await resolveSources(input, prepared.ignores, options.onWarning ?? (() => {}));
    await guard?.check(sources.flatMap((source) => (source.kind === 'file' ? [source.path] : [])));
    const result = await runRewrite(sources, prepared, targetOf(options), 'slim', undefined);
    return settled(jsonDocument(options.quiet ? errorsOnly(result.reports) : result.reports, prepared.ruleSet()), result.failures);
  });
}
