import type { FileReport, Finding } from '../pipeline/finding.js';
import type { RepairCounts } from '../repair/plan.js';
import type { Verdict } from '../verify/verdict.js';
import type { JsonFile, JsonReport } from './json-document.js';

const SEVERITIES = new Set(['error', 'warning', 'info']);
const VERDICTS = new Set(['PASS', 'FAIL', 'ERROR', 'SKIPPED']);

/**
 * A JSON report read back, checked field by field: anything that is not a transcript-doctor
 * report is refused with the reason, naming `name`. Returns the reason instead of the report.
 */
export function parseJsonReport(text: string): JsonReport | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (!isObject(value) || value.version !== 1 || !Array.isArray(value.files) || !isObject(value.summary)) {
    return 'not a transcript-doctor JSON report (written by -r json)';
  }
  if (!isObject(value.tool) || value.tool.name !== 'transcript-doctor' || typeof value.tool.version !== 'string') {
    return 'a JSON report without its tool version (written before merge-reports existed?); write it again with this version';
  }
  if (value.ruleSet !== undefined && typeof value.ruleSet !== 'string') return 'ruleSet is not a string';
  for (const [i, file] of value.files.entries()) {
    const problem = fileProblem(file);
    if (problem !== undefined) return `files[${i}]: ${problem}`;
  }
  return value as unknown as JsonReport;
}

function fileProblem(file: unknown): string | undefined {
  if (!isObject(file) || typeof file.path !== 'string' || !(typeof file.format === 'string' || file.format === null) || !Array.isArray(file.findings)) {
    return 'not a file entry (path, format, findings)';
  }
  for (const finding of file.findings) {
    if (!isObject(finding) || typeof finding.rule !== 'string' || !SEVERITIES.has(finding.severity as string) || !Number.isInteger(finding.line)) {
      return 'a finding without rule, severity or line';
    }
    if (typeof finding.pointer !== 'string' || typeof finding.message !== 'string') return 'a finding without pointer or message';
  }
  if (file.verdicts !== undefined) {
    if (!Array.isArray(file.verdicts)) return 'verdicts is not a list';
    for (const verdict of file.verdicts) {
      if (!isObject(verdict) || !VERDICTS.has(verdict.verdict as string) || !Number.isInteger(verdict.line)) return 'a verdict without line or verdict';
    }
  }
  return undefined;
}

/** The reports a JSON document was written from, as far as it carries them (a repair's line lists are not in it). */
export function fileReportsOf(document: JsonReport): FileReport[] {
  return document.files.map((file) => {
    const report: FileReport = { path: file.path, format: file.format, findings: file.findings.map(findingOf) };
    if (file.changed !== undefined) {
      report.repair = { changed: file.changed, counts: file.counts as RepairCounts, lines: { dropped: [], moved: [], rewritten: [] } };
      if (file.output != null) report.repair.output = file.output;
      if (file.backup != null) report.repair.backupPath = file.backup;
    }
    if (file.verdicts !== undefined) report.verdicts = file.verdicts.map(verdictOf);
    // Carried only in the shape this tool writes: merged reports show it as it stands.
    if (isObject(file.size) && typeof file.size.bytes === 'number' && isObject(file.size.tokens) && isObject(file.size.byKind)) report.size = file.size;
    return report;
  });
}

function findingOf(finding: JsonFile['findings'][number]): Finding {
  const { rule, severity, line, pointer, message, providerError, healedBy } = finding;
  const read: Finding = providerError === undefined ? { rule, severity, line, pointer, message } : { rule, severity, line, pointer, message, providerError };
  // Carried only in the shape this tool writes: it is printed as it stands.
  if (isObject(healedBy) && typeof healedBy.client === 'string' && typeof healedBy.since === 'string' && typeof healedBy.how === 'string') {
    read.healedBy = { client: healedBy.client, since: healedBy.since, how: healedBy.how };
  }
  return read;
}

function verdictOf(record: NonNullable<JsonFile['verdicts']>[number]): Verdict {
  const verdict: Verdict = { line: record.line, verdict: record.verdict };
  if (record.category !== null) verdict.category = record.category as Verdict['category'];
  if (record.feedback !== null) verdict.feedback = record.feedback;
  if (record.model !== null) verdict.model = record.model;
  if (record.latencyMs !== null) verdict.latencyMs = record.latencyMs;
  if (record.cached) verdict.cached = true;
  return verdict;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
