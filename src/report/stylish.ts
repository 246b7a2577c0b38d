import { Chalk } from 'chalk';
import type { Severity } from '../rules/rule.js';
import type { Finding } from '../pipeline/finding.js';
import { describeLines, describeRepair, pastTense } from './repair-text.js';
import type { Reporter } from './types.js';
import { terminalText as t } from './terminal-text.js';
import { summarize, verdictCounts } from './types.js';
import { describeSkipped, describeVerdict } from './verdicts-text.js';

const SEVERITY_WIDTH = 'warning'.length;

/**
 * Human output in ESLint's shape: findings grouped per file, then one summary line. Every text
 * that comes from a transcript or a merged report goes through `t` before it is coloured.
 */
export const stylishReporter: Reporter = (reports, { color, dryRun = false, verb = 'repair' }) => {
  const c = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<Severity, (text: string) => string> = { error: c.red, warning: c.yellow, info: c.blue };
  const out: string[] = [];
  for (const report of reports) {
    const repair = report.repair;
    const judged = (report.verdicts ?? []).filter((v) => v.verdict !== 'SKIPPED');
    const skipped = describeSkipped(report.verdicts ?? []);
    if (report.findings.length === 0 && (repair === undefined || (!repair.changed && repair.note === undefined)) && judged.length === 0 && skipped === undefined) continue;
    out.push(c.underline(t(report.path)) + c.dim(report.format ? `  (${t(report.format)})` : ''));
    if (repair !== undefined) {
      out.push(`  ${c.green(t(describeRepair(repair, dryRun, report.path, verb)))}`);
      if (dryRun) for (const line of describeLines(repair)) out.push(`    ${line}`);
      if (report.findings.length > 0) out.push(c.dim(`  left in the ${dryRun ? 'result' : 'repaired file'} (line numbers of the repaired file):`));
    }
    const lineWidth = Math.max(1, ...report.findings.map((finding) => String(finding.line).length));
    const indent = ' '.repeat(2 + lineWidth + 2 + SEVERITY_WIDTH + 2);
    for (const finding of report.findings) {
      out.push(
        `  ${String(finding.line).padStart(lineWidth)}  ${paint[finding.severity](finding.severity.padEnd(SEVERITY_WIDTH))}  ` +
          `${t(finding.message)}  ${c.dim(t(finding.rule))}`,
      );
      const where = finding.pointer ? `at ${finding.pointer}` : '';
      const detail = [where, finding.providerError].filter(Boolean).join(' · ');
      if (detail) out.push(indent + c.dim(t(detail)));
      if (finding.healedBy !== undefined) out.push(indent + c.dim(t(healedLine(finding.healedBy))));
    }
    const verdictColour = { PASS: c.green, FAIL: c.red, ERROR: c.yellow, SKIPPED: c.dim };
    const width = Math.max(1, ...judged.map((v) => String(v.line).length));
    for (const verdict of judged) {
      out.push(`  ${String(verdict.line).padStart(width)}  ${verdictColour[verdict.verdict](verdict.verdict.padEnd(5))}  ${t(describeVerdict(verdict))}`);
    }
    if (skipped !== undefined) out.push(c.dim(`  ${t(skipped)}`));
    out.push('');
  }
  const summary = summarize(reports);
  const problems = summary.errors + summary.warnings + summary.infos;
  const repaired = reports.filter((report) => report.repair?.changed).length;
  if (reports.some((report) => report.verdicts !== undefined)) {
    const v = verdictCounts(reports);
    const line = `${v.pass} passed, ${v.fail} failed, ${v.error} error${v.error === 1 ? '' : 's'}, ${v.skipped} skipped in ${summary.files} file${summary.files === 1 ? '' : 's'}.`;
    out.push(v.fail > 0 ? c.red.bold(`✖ ${line}`) : v.error > 0 ? c.yellow.bold(`! ${line}`) : c.green(`✔ ${line}`));
    return out.join('\n') + '\n';
  }
  if (reports.some((report) => report.repair !== undefined)) {
    const done = dryRun ? `Would ${verb}` : pastTense(verb);
    out.push(c.bold(`${done.charAt(0).toUpperCase()}${done.slice(1)} ${repaired} of ${reports.length} file${reports.length === 1 ? '' : 's'}.`));
  }
  const files = `${summary.files} file${summary.files === 1 ? '' : 's'}`;
  if (problems === 0) {
    out.push(c.green(`✔ No problems ${reports.some((r) => r.repair) ? 'left ' : ''}in ${files}.`));
  } else {
    const affected = reports.filter((report) => report.findings.length > 0).length;
    const parts = [`${summary.errors} error${summary.errors === 1 ? '' : 's'}`, `${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}`];
    if (summary.infos > 0) parts.push(`${summary.infos} info`);
    const left = reports.some((r) => r.repair) ? ' left' : '';
    const line = `✖ ${problems} problem${problems === 1 ? '' : 's'}${left} (${parts.join(', ')}) in ${affected} of ${files}.`;
    out.push(summary.errors > 0 ? c.red.bold(line) : c.yellow.bold(line));
  }
  return out.join('\n') + '\n';
};

/** One line saying the client mends this itself on resume, so it bites only other readers of the file. */
function healedLine({ client, since, how }: NonNullable<Finding['healedBy']>): string {
  return `healed on resume by ${client} ${since}+ (${how}); other readers still meet it`;
}
