import { reason, UserError } from '../errors.js';
import { expandInputs } from '../io/inputs.js';
import { outputPaths } from '../io/output-paths.js';
import type { FileReport } from '../pipeline/finding.js';
import { repairInput, type Target } from '../pipeline/repair.js';
import type { RepairMode } from '../repair/plan.js';
import { loadReporter, reporterNames } from '../report/index.js';
import { createProgress } from './progress.js';
import { errorsOnly, exitCode, useColor, writeReport } from './output.js';

export interface RepairOptions {
  mode?: string;
  inPlace?: boolean;
  backup: boolean;
  force?: boolean;
  output?: string;
  dryRun?: boolean;
  reporter: string;
  outputFile?: string;
  quiet?: boolean;
  color: boolean;
}

const MODES: readonly RepairMode[] = ['discard', 'synthetic'];

/** `transcript-doctor repair`: returns the exit code. */
export async function repairCommand(paths: readonly string[], options: RepairOptions): Promise<number> {
  const mode = resolveMode(options.mode);
  const reporter = await loadReporter(options.reporter);
  if (reporter === undefined) throw new UserError(`unknown reporter "${options.reporter}" (choose from: ${reporterNames.join(', ')})`);
  if (paths.length === 0) throw new UserError('repair needs files, folders or - (standard input); it never guesses which sessions to change');
  const chosen = [options.inPlace && '--in-place', options.output !== undefined && '--output', options.dryRun && '--dry-run'].filter(Boolean);
  if (chosen.length > 1) throw new UserError(`choose one of ${chosen.join(', ')}`);
  const inputs = await expandInputs(paths);
  if (options.inPlace && inputs.some((input) => input.kind === 'stdin')) throw new UserError('--in-place cannot write back to standard input');
  const toStdout = chosen.length === 0;
  if (toStdout && inputs.length > 1) {
    throw new UserError(`${inputs.length} transcripts to repair: use --in-place, --output <folder> or --dry-run`);
  }
  const outputs = options.output === undefined ? undefined : await outputPaths(options.output, inputs.map((input) => input.path));

  const progress = await createProgress(options.dryRun ? 'Checking' : 'Repairing');
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
        reports.push(await repairInput(input.path, input.kind === 'stdin' ? process.stdin : undefined, mode, target));
      } catch (error) {
        failed += 1;
        progress.stop();
        const message = error instanceof UserError ? error.message : `cannot repair ${input.path}: ${reason(error)}`;
        process.stderr.write(`transcript-doctor: ${message}\n`);
      }
    }
  } finally {
    progress.stop();
  }

  const shown = options.quiet ? errorsOnly(reports) : reports;
  // When the transcript itself goes to standard output, the report must not mix into it.
  const reportToStderr = toStdout && options.outputFile === undefined;
  const text = reporter(shown, { color: useColor(options.color, options.outputFile, process.env, reportToStderr ? process.stderr : process.stdout), dryRun: options.dryRun });
  if (reportToStderr) process.stderr.write(text);
  else await writeReport(text, options.outputFile);
  return exitCode(reports, failed);
}

/** `--mode`, else OPENCLAW_TOOL_GUARD_ABORT_MODE (seed 001), else discard. */
function resolveMode(flag: string | undefined): RepairMode {
  const fromEnv = process.env.OPENCLAW_TOOL_GUARD_ABORT_MODE;
  const value = flag ?? (fromEnv === '' ? undefined : fromEnv) ?? 'discard';
  if (!MODES.includes(value as RepairMode)) {
    const source = flag === undefined ? 'OPENCLAW_TOOL_GUARD_ABORT_MODE' : '--mode';
    throw new UserError(`${source} must be discard or synthetic, not "${value}"`);
  }
  return value as RepairMode;
}
