import { reason, UserError } from '../errors.js';
import { loadProjectConfig } from '../io/config.js';
import { expandInputs } from '../io/inputs.js';
import { configureRules } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import { outputPaths } from '../io/output-paths.js';
import type { FileReport } from '../pipeline/finding.js';
import { rewriteInput, type Rewrite, type Target } from '../pipeline/rewrite.js';
import { createProgress } from './progress.js';
import { errorsOnly, exitCode } from './output.js';
import { emitReports, planReports } from './reporting.js';

export interface RewriteOptions {
  config?: string;
  inPlace?: boolean;
  backup: boolean;
  force?: boolean;
  output?: string;
  dryRun?: boolean;
  reporter?: string[];
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
}

/** `repair` and `canonicalize` without --check: rewrite each input, report what changed and what is left. */
export async function rewriteCommand(paths: readonly string[], options: RewriteOptions, rewrite: Rewrite, verb: 'repair' | 'canonicalize'): Promise<number> {
  const destinations = await planReports(options);
  if (paths.length === 0) throw new UserError(`${verb} needs files, folders or - (standard input); it never guesses which sessions to change`);
  const chosen = [options.inPlace && '--in-place', options.output !== undefined && '--output', options.dryRun && '--dry-run'].filter(Boolean);
  if (chosen.length > 1) throw new UserError(`choose one of ${chosen.join(', ')}`);
  const config = loadProjectConfig(options.config, allRules.map((rule) => rule.meta.id));
  rewrite = { ...rewrite, rules: configureRules(rewrite.rules, config.rules), provider: rewrite.provider ?? config.provider };
  const inputs = await expandInputs(paths, config.ignores);
  if (options.inPlace && inputs.some((input) => input.kind === 'stdin')) throw new UserError('--in-place cannot write back to standard input');
  const toStdout = chosen.length === 0;
  if (toStdout && inputs.length > 1) {
    throw new UserError(`${inputs.length} transcripts to ${verb}: use --in-place, --output <folder> or --dry-run`);
  }
  const outputs = options.output === undefined ? undefined : await outputPaths(options.output, inputs.map((input) => input.path));

  const progress = await createProgress(options.dryRun ? 'Checking' : 'Rewriting');
  const reports: FileReport[] = [];
  let failed = 0;
  try {
    for (const [i, input] of inputs.entries()) {
      progress.update(i, inputs.length);
      const target: Target = options.dryRun
        ? { kind: 'dry-run' }
        : options.inPlace
          ? { kind: 'in-place', backup: options.backup, force: options.force ?? false }
          : outputs !== undefined
            ? { kind: 'file', path: outputs[i]! }
            : { kind: 'stream', stream: process.stdout };
      try {
        reports.push(await rewriteInput(input.path, input.kind === 'stdin' ? process.stdin : undefined, rewrite, target));
      } catch (error) {
        failed += 1;
        progress.stop();
        const message = error instanceof UserError ? error.message : `cannot ${verb} ${input.path}: ${reason(error)}`;
        process.stderr.write(`transcript-doctor: ${message}\n`);
      }
    }
  } finally {
    progress.stop();
  }

  const shown = options.quiet ? errorsOnly(reports) : reports;
  // Nothing to report when every input failed (the errors have been said). When the transcript
  // itself goes to standard output, the report must not mix into it.
  if (reports.length > 0 || failed === 0) {
    await emitReports(destinations, shown, { color: options.color, dryRun: options.dryRun, verb }, toStdout ? process.stderr : process.stdout);
  }
  return exitCode(reports, failed);
}
