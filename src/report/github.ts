import type { FileReport } from '../pipeline/finding.js';
import type { Severity } from '../rules/rule.js';
import type { Reporter } from './types.js';

type Command = 'error' | 'warning' | 'notice';

const COMMAND: Record<Severity, Command> = { error: 'error', warning: 'warning', info: 'notice' };

/** The runner splits commands on newlines and decodes these three, as @actions/core encodes them. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values also end at ',' (next property) and '::' (start of the message). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Findings of a repair carry line numbers of the file written, so that is the file they point into. */
function locatedIn(report: FileReport): string {
  const output = report.repair?.output;
  return output === undefined || output === '-' ? report.path : output;
}

function annotation(command: Command, file: string, line: number, title: string, message: string): string {
  // Standard input is no file in the repository: such an annotation is shown on the run, not on a file.
  const where = file === '-' ? [] : [`file=${escapeProperty(file)}`, `line=${line}`];
  return `::${command} ${[...where, `title=${escapeProperty(title)}`].join(',')}::${escapeData(message)}`;
}

/** GitHub Actions workflow commands: one annotation per finding and per FAIL or ERROR verdict, nothing else. */
export const githubReporter: Reporter = (reports) => {
  const lines: string[] = [];
  for (const report of reports) {
    const file = locatedIn(report);
    for (const finding of report.findings) {
      const message = finding.providerError === undefined ? finding.message : `${finding.message}\n${finding.providerError}`;
      lines.push(annotation(COMMAND[finding.severity], file, finding.line, finding.rule, message));
    }
    for (const verdict of report.verdicts ?? []) {
      if (verdict.verdict === 'FAIL') lines.push(annotation('error', file, verdict.line, `verify/${verdict.category}`, verdict.feedback ?? ''));
      if (verdict.verdict === 'ERROR') lines.push(annotation('warning', file, verdict.line, 'verify/error', verdict.feedback ?? ''));
    }
  }
  return lines.map((line) => `${line}\n`).join('');
};
