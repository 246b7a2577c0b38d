import type { Writable } from 'node:stream';
import { reason, UserError } from '../errors.js';
import { loadProjectConfig } from '../io/config.js';
import { outputPaths } from '../io/output-paths.js';
import type { FileReport } from '../pipeline/finding.js';
import type { TranscriptFormat } from '../formats/format.js';
import { checkCanonical, rewriteInput, type Rewrite, type Target } from '../pipeline/rewrite.js';
import { configureRules } from '../rules/configure.js';
import { ruleSetFingerprint } from '../rules/fingerprint.js';
import { rules as allRules } from '../rules/index.js';
import type { Failure, RunResult } from './scan.js';
import type { Source } from './sources.js';
import { wholeNumber } from './numbers.js';

/** Where `repair` and `canonicalize` write, the same on the command line and in the library. */
export interface RewriteTargetOptions {
  inPlace?: boolean;
  /** With inPlace: keep a .bak-<timestamp> copy (default true). */
  backup?: boolean;
  /** With inPlace: how many backups of each file to keep, newest first (default: the config's keepBackups, else 3). */
  keepBackups?: string | number;
  force?: boolean;
  /** A file, a folder for several inputs, or (library only) a stream. */
  output?: string | Writable;
  dryRun?: boolean;
  config?: string;
}

export interface PreparedRewrite {
  rewrite: Rewrite;
  /** The config's "keepBackups", if it says. */
  keepBackups?: number;
  ignores: readonly string[];
  /** The fingerprint of the rules (see ReportOptions.ruleSet). */
  ruleSet: () => string;
}

/** The rewrite with the project's severities applied to the rules it reports. */
export function prepareRewrite(rewrite: Rewrite, config: string | undefined): PreparedRewrite {
  const project = loadProjectConfig(config, allRules.map((rule) => rule.meta.id));
  const rules = configureRules(rewrite.rules, project.rules);
  return {
    rewrite: { ...rewrite, rules, provider: rewrite.provider ?? project.provider },
    keepBackups: project.keepBackups,
    ignores: project.ignores,
    ruleSet: () => ruleSetFingerprint(rules),
  };
}

/**
 * Rewrites every source to its target. `fallback` is where a single result goes when no target
 * is named (standard output on the command line; the library has none and asks for one).
 * A source that fails is recorded and the rest go on, as on the command line.
 */
export async function runRewrite(
  sources: readonly Source[],
  prepared: PreparedRewrite,
  options: RewriteTargetOptions,
  verb: 'repair' | 'canonicalize' | 'slim',
  fallback: Writable | undefined,
  onDone: (index: number, failure?: Failure) => void = () => {},
): Promise<RunResult & { toFallback: boolean }> {
  if (sources.length === 0) throw new UserError(`${verb} needs files, folders or - (standard input); it never guesses which sessions to change`);
  const chosen = [options.inPlace && '--in-place', options.output !== undefined && '--out', options.dryRun && '--dry-run'].filter(Boolean);
  if (chosen.length > 1) throw new UserError(`choose one of ${chosen.join(', ')}`);
  if (options.inPlace && sources.some((source) => source.kind === 'stream')) throw new UserError('--in-place cannot write back to standard input');
  const toFallback = chosen.length === 0;
  if (toFallback && fallback === undefined) throw new UserError(`${verb} needs output, inPlace or dryRun`);
  if (toFallback && sources.length > 1) throw new UserError(`${sources.length} transcripts to ${verb}: use --in-place, --out <folder> or --dry-run`);
  const output = options.output;
  if (typeof output === 'object' && sources.length > 1) throw new UserError(`${sources.length} transcripts to ${verb}: a stream output takes one input`);
  const keepBackups = options.keepBackups === undefined ? prepared.keepBackups : wholeNumber(options.keepBackups, '--keep-backups', 1);
  if (options.keepBackups !== undefined && !options.inPlace) throw new UserError('--keep-backups is for --in-place writes, which keep backups');
  const outputs = typeof output === 'string' ? await outputPaths(output, sources.map((source) => source.path)) : undefined;

  const result: RunResult & { toFallback: boolean } = { reports: [], failures: [], toFallback };
  for (const [i, source] of sources.entries()) {
    const target: Target = options.dryRun
      ? { kind: 'dry-run' }
      : options.inPlace
        ? { kind: 'in-place', backup: options.backup ?? true, force: options.force ?? false, keepBackups }
        : outputs !== undefined
          ? { kind: 'file', path: outputs[i]! }
          : { kind: 'stream', stream: (output as Writable | undefined) ?? fallback! };
    // A stream's failure comes back through the rejected write; its 'error' event, unheard, would crash the process.
    const ignore = () => {};
    if (target.kind === 'stream') target.stream.on('error', ignore);
    try {
      const report = await rewriteInput(source.path, source.kind === 'stream' ? source.stream : undefined, prepared.rewrite, target);
      prepared.rewrite.finish?.(report);
      result.reports.push(report);
      onDone(i);
    } catch (error) {
      const failure = { path: source.path, message: error instanceof UserError ? error.message : `cannot ${verb} ${source.path}: ${reason(error)}` };
      result.failures.push(failure);
      onDone(i, failure);
    } finally {
      if (target.kind === 'stream') target.stream.off('error', ignore);
    }
  }
  return result;
}

/** `canonicalize --check`: the lines that would change, as findings; writes nothing. */
export async function runCanonicalCheck(sources: readonly Source[], options: RewriteTargetOptions, format?: TranscriptFormat): Promise<FileReport[]> {
  if (options.inPlace || options.output !== undefined || options.dryRun) throw new UserError('--check writes nothing; drop --in-place, --out and --dry-run');
  if (sources.length === 0) throw new UserError('canonicalize needs files, folders or - (standard input)');
  const reports: FileReport[] = [];
  for (const source of sources) reports.push(await checkCanonical(source.path, source.kind === 'stream' ? source.stream : undefined, format));
  return reports;
}
