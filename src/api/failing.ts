import type { JsonReport } from '../report/json-document.js';
import { fileReportsOf } from '../report/read-json.js';
import { exitPolicy, failingReports } from '../run/exit.js';

/**
 * The paths that fail, as `scan -l` lists them and as the exit code counts them: files with an
 * error, and files with a warning once the report has more than `maxWarnings` warnings.
 */
export function failingFiles(report: JsonReport, options: { maxWarnings?: number } = {}): string[] {
  return failingReports(fileReportsOf(report), exitPolicy(options)).map((file) => file.path);
}
