import type { Reporter } from './types.js';
import { summarize, verdictCounts, verdictRecord } from './types.js';

/** One JSON document, stable field order, for tools and CI. Repairs add what they did per file. */
export const jsonReporter: Reporter = (reports) => {
  const summary = summarize(reports);
  const document = {
    version: 1,
    files: reports.map((report) => ({
      path: report.path,
      format: report.format,
      ...(report.repair !== undefined
        ? {
            changed: report.repair.changed,
            output: report.repair.output ?? null,
            backup: report.repair.backupPath ?? null,
            counts: report.repair.counts,
          }
        : {}),
      findings: report.findings.map((finding) => ({
        rule: finding.rule,
        severity: finding.severity,
        line: finding.line,
        pointer: finding.pointer,
        message: finding.message,
        ...(finding.providerError !== undefined ? { providerError: finding.providerError } : {}),
      })),
      ...(report.verdicts !== undefined
        ? {
            verdicts: report.verdicts.map(verdictRecord),
          }
        : {}),
    })),
    summary: {
      files: summary.files,
      ...(reports.some((report) => report.repair !== undefined) ? { changed: reports.filter((r) => r.repair?.changed).length } : {}),
      errors: summary.errors,
      warnings: summary.warnings,
      ...(reports.some((report) => report.verdicts !== undefined) ? verdictCounts(reports) : {}),
    },
  };
  return JSON.stringify(document, null, 2) + '\n';
};
