import type { Writable } from 'node:stream';
import { canonicalRewrite, repairRewrite, type Rewrite } from '../pipeline/rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { jsonDocument, type JsonReport } from '../report/json-document.js';
import { errorsOnly } from '../run/exit.js';
import { prepareRewrite, runCanonicalCheck, runRewrite, type RewriteTargetOptions } from '../run/rewrite.js';
import { resolveSources, type TranscriptInput } from '../run/sources.js';
import { UserError } from '../errors.js';
import { OutputStreamGuard } from '../io/output-stream.js';
import { settled } from './failed.js';

/** Where `repair` and `canonicalize` write: exactly one of output, inPlace, dryRun. */
export interface RewriteOptions {
  /** A file (a folder for several inputs), or a stream for one input. */
  output?: string | Writable;
  /** Replace each file atomically (refused while a live agent holds its lock, unless force). */
  inPlace?: boolean;
  /** With inPlace: keep a .bak-<timestamp> copy (default true). */
  backup?: boolean;
  /** With inPlace: keep only the newest this many backups of each file (default: the config's keepBackups, else 3). */
  keepBackups?: number;
  force?: boolean;
  /** Report what would change, write nothing. */
  dryRun?: boolean;
  /** Project config (default: the nearest transcript-doctor.config.json). */
  config?: string;
  /** Errors only in the findings reported as left. */
  quiet?: boolean;
  onWarning?: (message: string) => void;
}

export interface RepairOptions extends RewriteOptions {
  /** A tool call without a result: drop the pair (discard, the default) or add an error result (synthetic). */
  mode?: RepairMode;
}

export interface CanonicalizeOptions extends RewriteOptions {
  /** Write nothing; report every line that would change. */
  check?: boolean;
}

/** Repairs transcripts; resolves to the document `repair -r json` prints. */
export function repair(input: TranscriptInput, options: RepairOptions = {}): Promise<JsonReport> {
  return guarded(options, async (guard) => {
    const mode = options.mode ?? 'discard';
    if (mode !== 'discard' && mode !== 'synthetic') throw new UserError(`--mode must be discard or synthetic, not "${String(mode)}"`);
    return rewrite(input, options, repairRewrite(mode), 'repair', guard);
  });
}

/** Canonicalizes transcripts (or, with check, reports what would change); resolves to the JSON reporter's document. */
export function canonicalize(input: TranscriptInput, options: CanonicalizeOptions = {}): Promise<JsonReport> {
  return guarded(options, async (guard) => {
    if (!options.check) return rewrite(input, options, canonicalRewrite, 'canonicalize', guard);
    const prepared = prepareRewrite(canonicalRewrite, options.config);
    const sources = await resolveSources(input, prepared.ignores, options.onWarning ?? (() => {}));
    return jsonDocument(await runCanonicalCheck(sources, targetOf(options)), prepared.ruleSet());
  });
}

/**
 * An output stream is guarded from the moment of the call, before `fs.createWriteStream` can open
 * its file (see output-stream.ts); whatever fails first, the guarded stream is never left pending.
 */
export async function guarded(options: RewriteOptions, run: (guard: OutputStreamGuard | undefined) => Promise<JsonReport>): Promise<JsonReport> {
  const guard = typeof options.output === 'object' && options.output !== null ? new OutputStreamGuard(options.output) : undefined;
  try {
    return await run(guard);
  } catch (error) {
    guard?.abandon(error);
    throw error;
  }
}

async function rewrite(input: TranscriptInput, options: RewriteOptions, chosen: Rewrite, verb: 'repair' | 'canonicalize', guard: OutputStreamGuard | undefined): Promise<JsonReport> {
  const prepared = prepareRewrite(chosen, options.config);
  const sources = await resolveSources(input, prepared.ignores, options.onWarning ?? (() => {}));
  await guard?.check(sources.flatMap((source) => (source.kind === 'file' ? [source.path] : [])));
  const result = await runRewrite(sources, prepared, targetOf(options), verb, undefined);
  return settled(jsonDocument(options.quiet ? errorsOnly(result.reports) : result.reports, prepared.ruleSet()), result.failures);
}

export function targetOf(options: RewriteOptions): RewriteTargetOptions {
  const { output, inPlace, backup, keepBackups, force, dryRun, config } = options;
  return { output, inPlace, backup, keepBackups, force, dryRun, config };
}
