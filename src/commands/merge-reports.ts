import { UserError } from '../errors.js';
import { LIMITS, readBoundedText, readProblem } from '../io/bounded-read.js';
import { mergeReports } from '../report/merge.js';
import { parseJsonReport } from '../report/read-json.js';
import { errorsOnly, exitCode, exitPolicy, type ExitOptions } from '../run/exit.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';

export interface MergeOptions extends ExitOptions {
  reporter?: string[];
  outputFile?: string[];
  quiet?: boolean;
  color: boolean;
}

/** `transcript-doctor merge-reports`: returns the exit code of one run over everything the reports cover. */
export async function mergeReportsCommand(files: readonly string[], options: MergeOptions): Promise<number> {
  const destinations = await planReports(options);
  await refuseWritesOverInputs(reportWrites(destinations), files);
  const policy = exitPolicy(options);
  const documents = [];
  for (const name of files) {
    let text: string;
    try {
      text = readBoundedText(name, LIMITS.report);
    } catch (error) {
      throw new UserError(`cannot read report ${name}: ${readProblem(error)}`);
    }
    const document = parseJsonReport(text);
    if (typeof document === 'string') throw new UserError(`${name}: ${document}`);
    documents.push({ name, document });
  }
  const { reports, ruleSet } = mergeReports(documents);
  await emitReports(destinations, options.quiet ? errorsOnly(reports) : reports, { color: options.color, ...(ruleSet !== undefined ? { ruleSet: () => ruleSet } : {}) });
  const code = exitCode(reports, 0, policy);
  if (code !== 0 || policy.exitZero) return code;
  return reports.some((report) => report.verdicts?.some((verdict) => verdict.verdict === 'FAIL')) ? 1 : 0;
}
