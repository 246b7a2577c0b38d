import type { Rewrite } from '../pipeline/rewrite.js';
import { prepareRewrite, runRewrite } from '../run/rewrite.js';
import { sourcesOf } from '../run/sources.js';
import { createProgress } from './progress.js';
import { namedInputs, type InputListOptions } from './inputs.js';
import { errorsOnly, exitCode } from '../run/exit.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';
import { printConfig } from './print-config.js';
import { terminalText } from '../report/terminal-text.js';
import { agentOf, reportersOf, type FormatOptions } from './format-options.js';
import { diffCommand } from './diff.js';
import { UserError } from '../errors.js';

export interface RewriteOptions extends InputListOptions, FormatOptions {
  config?: string;
  inPlace?: boolean;
  backup: boolean;
  keepBackups?: string;
  force?: boolean;
  /** `--out`; `output` is its old name (`--output`), and the library's. */
  out?: string;
  output?: string;
  dryRun?: boolean;
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
  printConfig?: boolean;
  diff?: boolean;
}

/** `repair` and `canonicalize` without --check: rewrite each input, report what changed and what is left. */
export async function rewriteCommand(paths: readonly string[], given: RewriteOptions, rewrite: Rewrite, verb: 'repair' | 'canonicalize' | 'slim'): Promise<number> {
  if (given.printConfig) return printConfig(given.config);
  const options = withTranscriptTarget(given);
  const destinations = await planReports(options);
  const prepared = prepareRewrite({ ...rewrite, format: agentOf(options) }, options.config);
  let missing = 0;
  const named = await namedInputs(paths, options, prepared.ignores, () => missing++);
  // An empty --files-from list (find matched nothing) is nothing to do, not a mistake.
  if (named !== undefined && named.length === 0) {
    await emitReports(destinations, [], { color: options.color, dryRun: options.dryRun, verb, ruleSet: prepared.ruleSet });
    return 0;
  }
  const inputs = named ?? [];
  if (options.diff) {
    const chosen = [options.inPlace && '--in-place', options.output !== undefined && '--out', options.dryRun && '--dry-run'].filter(Boolean);
    if (chosen.length > 0) throw new UserError(`--diff writes nothing but the diff; drop ${chosen.join(', ')}`);
  }
  // With no target the transcript (or the diff) goes to standard output: `>> input` would append it to the input.
  const toStdout = !options.inPlace && options.output === undefined && !options.dryRun ? [{ flag: 'standard output', fd: 1 }] : [];
  const transcriptFile = typeof options.output === 'string' ? [{ flag: '--out', path: options.output }] : [];
  await refuseWritesOverInputs([...reportWrites(destinations), ...transcriptFile, ...toStdout], inputs.map((input) => input.path));
  if (options.diff) {
    const { reports, failures, changed } = await diffCommand(inputs, prepared, verb);
    // Standard output holds the diff, so a report not sent to a file goes to standard error.
    await emitReports(destinations, options.quiet ? errorsOnly(reports) : reports, { color: options.color, dryRun: true, verb, ruleSet: prepared.ruleSet }, process.stderr);
    // A file that would change fails the check; with nothing to change the exit code is the rewrite's own.
    return failures.length + missing > 0 ? 2 : changed > 0 ? 1 : exitCode(reports, 0);
  }
  const sources = sourcesOf(inputs, process.stdin);
  const progress = await createProgress(options.dryRun ? 'Checking' : 'Rewriting', inputs.map((input) => input.path));
  let result;
  try {
    result = await runRewrite(sources, prepared, options, verb, process.stdout, (index, failure) => {
      progress.done(index);
      if (failure === undefined) return;
      progress.stop();
      process.stderr.write(`transcript-doctor: ${terminalText(failure.message)}\n`);
    });
  } finally {
    progress.stop();
  }
  const { reports, failures, toFallback } = result;
  const shown = options.quiet ? errorsOnly(reports) : reports;
  // Nothing to report when every input failed (the errors have been said). When the transcript
  // itself goes to standard output, the report must not mix into it.
  if (reports.length > 0 || failures.length === 0) {
    await emitReports(destinations, shown, { color: options.color, dryRun: options.dryRun, verb, ruleSet: prepared.ruleSet }, toFallback ? process.stderr : process.stdout);
  }
  return exitCode(reports, failures.length + missing);
}

/**
 * `--out` (or its old name `--output`) as the library's `output`; `-` is standard output. `-o`
 * became the report file, as in ESLint and Ruff: a stylish report aimed at a `.jsonl` file is the
 * old habit, refused before it writes a report where a transcript was meant to go.
 */
export function withTranscriptTarget<T extends RewriteOptions>(options: T): T {
  if (options.output !== undefined && options.out === undefined) {
    process.stderr.write('transcript-doctor: --output is now --out (-o and --output-file name the report file, as in ESLint and Ruff)\n');
  }
  const reportsAsText = reportersOf(options).every((name) => name === 'stylish');
  const meantTranscript = (options.outputFile ?? []).find((file) => reportsAsText && /\.jsonl$/i.test(file));
  if (meantTranscript !== undefined) {
    throw new UserError(`-o ${meantTranscript} names the report file (as in ESLint and Ruff); write the transcript with --out ${meantTranscript}`);
  }
  const output = options.out ?? options.output;
  // `--out -` is standard output, as `-` is standard input among the paths (`./-` names a file so called).
  return { ...options, output: output === '-' ? undefined : output };
}
