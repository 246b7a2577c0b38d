import { readFileSync } from 'node:fs';
import type { FileReport, Finding } from '../pipeline/finding.js';
import type { RepairCounts } from '../repair/plan.js';
import type { VerdictKind } from '../verify/verdict.js';
import type { SlimReport } from '../slim/report.js';
import { summarize, verdictCounts, verdictRecord } from './types.js';

/** Read the way src/cli.ts reads it: package.json sits one level above both src/ and dist/. */
const { version: toolVersion } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** A finding as the document writes it: the pipeline's, field for field (named so that a field added there for internal use stays out). */
export type JsonFinding = Pick<Finding, 'rule' | 'severity' | 'line' | 'pointer' | 'message' | 'providerError' | 'healedBy'>;

export interface JsonVerdict {
  line: number;
  verdict: VerdictKind;
  category: string | null;
  feedback: string | null;
  model: string | null;
  latencyMs: number | null;
  cached: boolean;
}

export interface JsonFile {
  /** As given or found; '-' for standard input or a stream. */
  path: string;
  format: string | null;
  /** Rewrites only. */
  changed?: boolean;
  output?: string | null;
  backup?: string | null;
  counts?: RepairCounts;
  findings: JsonFinding[];
  /** verify only. */
  verdicts?: JsonVerdict[];
  /** slim only: the request's size before and after, per strategy what went and what it saved. */
  slim?: SlimReport;
}

export interface JsonSummary {
  files: number;
  /** Rewrites only: files that were (or, in a dry run, would be) changed. */
  changed?: number;
  errors: number;
  warnings: number;
  /** verify only. */
  pass?: number;
  fail?: number;
  error?: number;
  skipped?: number;
}

/** The JSON reporter's document, which the library API also resolves to. */
export interface JsonReport {
  version: 1;
  /** Which build wrote it: merge-reports refuses to mix versions. */
  tool: { name: 'transcript-doctor'; version: string };
  /** A fingerprint of the rules and severities in effect (absent for verify): merge-reports refuses to mix rule sets. */
  ruleSet?: string;
  files: JsonFile[];
  summary: JsonSummary;
}

/** The document for these reports, fields in a stable order. */
export function jsonDocument(reports: readonly FileReport[], ruleSet?: string): JsonReport {
  const summary = summarize(reports);
  return {
    version: 1,
    tool: { name: 'transcript-doctor', version: toolVersion },
    ...(ruleSet !== undefined ? { ruleSet } : {}),
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
        ...(finding.healedBy !== undefined ? { healedBy: finding.healedBy } : {}),
      })),
      ...(report.verdicts !== undefined ? { verdicts: report.verdicts.map(verdictRecord) } : {}),
      ...(report.slim !== undefined ? { slim: report.slim } : {}),
    })),
    summary: {
      files: summary.files,
      ...(reports.some((report) => report.repair !== undefined) ? { changed: reports.filter((r) => r.repair?.changed).length } : {}),
      errors: summary.errors,
      warnings: summary.warnings,
      ...(reports.some((report) => report.verdicts !== undefined) ? verdictCounts(reports) : {}),
    },
  };
}
