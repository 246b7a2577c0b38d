import type { FileReport } from '../pipeline/finding.js';
import { failuresOnly, prepareVerify, runVerify, type VerifySettingsInput } from '../run/verify.js';
import { sourcesOf } from '../run/sources.js';
import { defaultInputs } from './scan.js';
import { createProgress } from './progress.js';
import { namedInputs, type InputListOptions } from './inputs.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';
import { printConfig } from './print-config.js';
import { terminalText } from '../report/terminal-text.js';
import { agentOf, type FormatOptions } from './format-options.js';

export interface VerifyOptions extends VerifySettingsInput, InputListOptions, FormatOptions {
  rules?: string[];
  retries: string;
  concurrency: string;
  cache: boolean;
  failClosed?: boolean;
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
  printConfig?: boolean;
}

/** `transcript-doctor verify`: returns the exit code. */
export async function verifyCommand(paths: readonly string[], options: VerifyOptions): Promise<number> {
  // --config is OpenClaw's here; the project config is always the one found upwards.
  if (options.printConfig) return printConfig(undefined);
  const destinations = await planReports(options);
  const { judge, ignores } = await prepareVerify(options, (message) => process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`));
  judge.format = agentOf(options);
  const inputs = (await namedInputs(paths, options, ignores)) ?? (await defaultInputs(ignores));
  // Before the judge sees anything: a refusal after the requests would have sent the transcripts for nothing.
  await refuseWritesOverInputs(reportWrites(destinations), inputs.map((input) => input.path));
  const progress = await createProgress('Verifying', inputs.map((input) => input.path));
  let reports: FileReport[];
  try {
    reports = await runVerify(sourcesOf(inputs, process.stdin), judge, (index) => progress.done(index));
  } finally {
    progress.stop();
  }
  await emitReports(destinations, options.quiet ? failuresOnly(reports) : reports, { color: options.color });
  const verdicts = reports.flatMap((report) => report.verdicts ?? []);
  // Fail-open as in the seed: a judge that errs does not fail the run, unless asked to.
  if (options.failClosed && verdicts.some((v) => v.verdict === 'ERROR')) return 2;
  return verdicts.some((v) => v.verdict === 'FAIL') ? 1 : 0;
}
