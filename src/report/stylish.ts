import { Chalk, type ChalkInstance } from 'chalk';
import type { Severity } from '../rules/rule.js';
import type { FileReport, Finding } from '../pipeline/finding.js';
import { foldRepeats } from './fold.js';
import { ruleCounts } from './statistics.js';
import { describeLines, describeRepair, pastTense } from './repair-text.js';
import { describeSlim } from './slim-text.js';
import type { Reporter } from './types.js';
import { terminalText as t } from './terminal-text.js';
import { summarize, verdictCounts } from './types.js';
import { describeSkipped, describeVerdict } from './verdicts-text.js';

const SEVERITY_WIDTH = 'warning'.length;
/** A dry run's list of changed lines stays on one terminal line: after this many ranges, a count. */
const SHOWN_LINE_RANGES = 10;

/**
 * Human output in ESLint's shape: findings grouped per file, then one summary line. Every text
 * that comes from a transcript or a merged report goes through `t` before it is coloured.
 */
export const stylishReporter: Reporter = (reports, { color, dryRun = false, verb = 'repair', allFindings = false, statistics = false }) => {
  const c = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<Severity, (text: string) => string> = { error: c.red, warning: c.yellow, info: c.blue };
  const out: string[] = [];
  let folded = 0;
  for (const report of statistics ? [] : reports) {
    const repair = report.repair;
    const judged = (report.verdicts ?? []).filter((v) => v.verdict !== 'SKIPPED');
    const skipped = describeSkipped(report.verdicts ?? []);
    if (report.findings.length === 0 && report.slim === undefined && (repair === undefined || (!repair.changed && repair.note === undefined)) && judged.length === 0 && skipped === undefined) continue;
    out.push(c.underline(t(report.path)) + c.dim(report.format ? `  (${t(report.format)})` : ''));
    if (repair !== undefined) {
      out.push(`  ${c.green(t(describeRepair(repair, dryRun, report.path, verb)))}`);
      if (dryRun) for (const line of describeLines(repair, allFindings ? Infinity : SHOWN_LINE_RANGES)) out.push(`    ${line}`);
      if (report.slim !== undefined) for (const line of describeSlim(report.slim)) out.push(`  ${t(line)}`);
      if (report.findings.length > 0) out.push(c.dim(`  left in the ${dryRun ? 'result' : 'repaired file'} (line numbers of the repaired file):`));
    }
    const { shown, more } = allFindings ? { shown: report.findings, more: [] } : foldRepeats(report.findings);
    const lineWidth = widestNumber(shown.map((finding) => finding.line));
    const indent = ' '.repeat(2 + lineWidth + 2 + SEVERITY_WIDTH + 2);
    for (const finding of shown) {
      out.push(
        `  ${String(finding.line).padStart(lineWidth)}  ${paint[finding.severity](finding.severity.padEnd(SEVERITY_WIDTH))}  ` +
          `${t(finding.message)}  ${c.dim(t(finding.rule))}`,
      );
      if (finding.pointer) out.push(indent + c.dim(t(`at ${finding.pointer}`)));
      // Provider errors run long: on a line of their own, the finding's line stays readable.
      if (finding.providerError !== undefined) out.push(indent + c.dim(t(finding.providerError)));
      if (finding.healedBy !== undefined) out.push(indent + c.dim(t(healedLine(finding.healedBy))));
    }
    for (const { rule, count } of more) {
      out.push(indent + c.dim(`… and ${count} more ${t(rule)} in this file`));
      folded += count;
    }
    const verdictColour = { PASS: c.green, FAIL: c.red, ERROR: c.yellow, SKIPPED: c.dim };
    const width = widestNumber(judged.map((v) => v.line));
    for (const verdict of judged) {
      out.push(`  ${String(verdict.line).padStart(width)}  ${verdictColour[verdict.verdict](verdict.verdict.padEnd(5))}  ${t(describeVerdict(verdict))}`);
    }
    if (skipped !== undefined) out.push(c.dim(`  ${t(skipped)}`));
    out.push('');
  }
  if (statistics) for (const line of statisticsLines(reports, paint, c)) out.push(line);
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
  if (folded > 0) out.push(c.dim(`${folded} repeat${folded === 1 ? '' : 's'} folded: --all-findings shows all, --statistics counts per rule.`));
  return out.join('\n') + '\n';
};

/** The digits of the largest number, for a right-aligned column; a loop, since a spread of 100k arguments overflows the stack. */
function widestNumber(numbers: readonly number[]): number {
  let widest = 1;
  for (const n of numbers) widest = Math.max(widest, String(n).length);
  return widest;
}

/** --statistics: one row per rule with its count, instead of the findings. */
function statisticsLines(reports: readonly FileReport[], paint: Record<Severity, (text: string) => string>, c: ChalkInstance): string[] {
  const rows = ruleCounts(reports);
  if (rows.length === 0) return [];
  const countWidth = Math.max('count'.length, widestNumber(rows.map((row) => row.count)));
  let ruleWidth = 'rule'.length;
  for (const row of rows) ruleWidth = Math.max(ruleWidth, t(row.rule).length);
  const lines = [c.dim(`${'count'.padStart(countWidth)}  ${'rule'.padEnd(ruleWidth)}  ${'severity'.padEnd(SEVERITY_WIDTH + 1)}  fix`)];
  for (const row of rows) {
    lines.push(`${String(row.count).padStart(countWidth)}  ${t(row.rule).padEnd(ruleWidth)}  ${paint[row.severity](row.severity.padEnd(SEVERITY_WIDTH + 1))}  ${row.fix}`);
  }
  lines.push('');
  return lines;
}

/** One line saying the client mends this itself on resume, so it bites only other readers of the file. */
function healedLine({ client, since, how }: NonNullable<Finding['healedBy']>): string {
  return `healed on resume by ${client} ${since}+ (${how}); other readers still meet it`;
}
