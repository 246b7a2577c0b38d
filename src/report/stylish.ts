import { Chalk } from 'chalk';
import type { Severity } from '../rules/rule.js';
import type { Reporter } from './types.js';
import { summarize } from './types.js';

const SEVERITY_WIDTH = 'warning'.length;

/** Human output in ESLint's shape: findings grouped per file, then one summary line. */
export const stylishReporter: Reporter = (reports, { color }) => {
  const c = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<Severity, (text: string) => string> = { error: c.red, warning: c.yellow, info: c.blue };
  const out: string[] = [];
  for (const report of reports) {
    if (report.findings.length === 0) continue;
    out.push(c.underline(report.path) + c.dim(report.format ? `  (${report.format})` : ''));
    const lineWidth = Math.max(...report.findings.map((finding) => String(finding.line).length));
    const indent = ' '.repeat(2 + lineWidth + 2 + SEVERITY_WIDTH + 2);
    for (const finding of report.findings) {
      out.push(
        `  ${String(finding.line).padStart(lineWidth)}  ${paint[finding.severity](finding.severity.padEnd(SEVERITY_WIDTH))}  ` +
          `${finding.message}  ${c.dim(finding.rule)}`,
      );
      const where = finding.pointer ? `at ${finding.pointer}` : '';
      const detail = [where, finding.providerError].filter(Boolean).join(' · ');
      if (detail) out.push(indent + c.dim(detail));
    }
    out.push('');
  }
  const summary = summarize(reports);
  const problems = summary.errors + summary.warnings + summary.infos;
  const files = `${summary.files} file${summary.files === 1 ? '' : 's'}`;
  if (problems === 0) {
    out.push(c.green(`✔ No problems in ${files}.`));
  } else {
    const affected = reports.filter((report) => report.findings.length > 0).length;
    const parts = [`${summary.errors} error${summary.errors === 1 ? '' : 's'}`, `${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}`];
    if (summary.infos > 0) parts.push(`${summary.infos} info`);
    const line = `✖ ${problems} problem${problems === 1 ? '' : 's'} (${parts.join(', ')}) in ${affected} of ${files}.`;
    out.push(summary.errors > 0 ? c.red.bold(line) : c.yellow.bold(line));
  }
  return out.join('\n') + '\n';
};
