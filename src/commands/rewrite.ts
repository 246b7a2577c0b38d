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
import { agentOf, type FormatOptions } from './format-options.js';
import { diffCommand } from './diff.js';
import { UserError } from '../errors.js';

export interface RewriteOptions extends InputListOptions, FormatOptions {
  config?: string;
  inPlace?: boolean;
  backup: boolean;
  force?: boolean;
  output?: string;
  dryRun?: boolean;
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
  printConfig?: boolean;
  diff?: boolean;
}

/** `repair` and `canonicalize` without --check: rewrite each input, report what changed and what is left. */
export async function rewriteCommand(paths: readonly string[], options: RewriteOptions, rewrite: Rewrite, verb: 'repair' | 'canonicalize'): Promise<number> {
  if (options.printConfig) return printConfig(options.config);
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
    const chosen = [options.inPlace && '--in-place', options.output !== undefined && '--output', options.dryRun && '--dry-run'].filter(Boolean);
    if (chosen.length > 0) throw new UserError(`--diff writes nothing but the diff; drop ${chosen.join(', ')}`);
    return diffCommand(inputs, prepared, verb);
  }
  // With no target the transcript goes to standard output: `>> input` would append it to the input.
  const toStdout = !options.inPlace && options.output === undefined && !options.dryRun ? [{ flag: 'standard output', fd: 1 }] : [];
  await refuseWritesOverInputs([...reportWrites(destinations), ...toStdout], inputs.map((input) => input.path));
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
