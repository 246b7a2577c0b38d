import { jsonDocument, type JsonReport } from '../report/json-document.js';
import { errorsOnly } from '../run/exit.js';
import { applyBaseline, runScan, scanSettings } from '../run/scan.js';
import { inShard, parseShard } from '../run/shard.js';
import { resolveSources, type TranscriptInput } from '../run/sources.js';
import { UserError } from '../errors.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { settled } from './failed.js';

/** `scan`'s options, named as on the command line. */
export interface ScanOptions {
  /** Transcript format, instead of detecting it per file: pi, claude-code, codex. */
  format?: string;
  /** Project config (default: the nearest transcript-doctor.config.json). */
  config?: string;
  /** Threads scanning files at once (default: the number of CPUs). */
  jobs?: number;
  /** Report only findings that are not in this baseline file. */
  baseline?: string;
  /** Record the findings as the baseline in this file. */
  writeBaseline?: string;
  /** Only shard i of n, as "i/n" (see `--shard`). */
  shard?: string;
  /** Errors only. */
  quiet?: boolean;
  /** Answer files found clean before and unchanged since from the scan cache (docs/cache.md); off unless asked for. */
  cache?: boolean;
  /** Where the scan cache lives (default: $XDG_CACHE_HOME/transcript-doctor/scan). */
  cacheDir?: string;
  /** Warnings about skipped inputs (default: none are printed). */
  onWarning?: (message: string) => void;
}

/**
 * Checks transcripts and resolves to the document `scan -r json` prints. An input that cannot be
 * read rejects with an InputsFailedError, which carries the report of the others.
 */
export async function scan(input: TranscriptInput, options: ScanOptions = {}): Promise<JsonReport> {
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const settings = await scanSettings(options);
  let sources = await resolveSources(input, settings.ignores, options.onWarning ?? (() => {}));
  if (shard !== undefined) {
    if (sources.some((source) => source.kind === 'stream')) throw new UserError('--shard splits files; a stream cannot be sharded');
    sources = inShard(sources, shard);
  }
  if (options.writeBaseline !== undefined) {
    await refuseWritesOverInputs([{ flag: 'writeBaseline', path: options.writeBaseline }], sources.flatMap((source) => (source.kind === 'file' ? [source.path] : [])));
  }
  const result = await runScan(sources, settings);
  const current = await applyBaseline(result.reports, settings, options.writeBaseline);
  return settled(jsonDocument(options.quiet ? errorsOnly(current) : current, settings.ruleSet()), result.failures);
}
