import { writeFile } from 'node:fs/promises';
import { reason, UserError } from '../errors.js';
import { LIMITS, readBoundedText, readProblem } from '../io/bounded-read.js';
import type { FileReport, Finding } from './finding.js';

/**
 * JSONL cannot carry `// transcript-doctor-disable` comments, so known findings are recorded in
 * a baseline file instead; later runs report only what is new. A finding is known by file, rule,
 * pointer and message (not line: lines move when a file is repaired or grows).
 */
interface BaselineFile {
  version: 1;
  findings: Array<{ path: string; rule: string; line: number; pointer: string; message: string }>;
}

function fingerprint(path: string, finding: Pick<Finding, 'rule' | 'pointer' | 'message'>): string {
  return JSON.stringify([path, finding.rule, finding.pointer, finding.message]);
}

export async function writeBaseline(file: string, reports: readonly FileReport[]): Promise<void> {
  const baseline: BaselineFile = {
    version: 1,
    findings: reports.flatMap((report) => report.findings.map((f) => ({ path: report.path, rule: f.rule, line: f.line, pointer: f.pointer, message: f.message }))),
  };
  try {
    await writeFile(file, JSON.stringify(baseline, null, 2) + '\n');
  } catch (error) {
    throw new UserError(`cannot write baseline ${file}: ${reason(error)}`);
  }
}

export async function readBaseline(file: string): Promise<Map<string, number>> {
  let text: string;
  try {
    text = readBoundedText(file, LIMITS.baseline);
  } catch (error) {
    throw new UserError(`cannot read baseline ${file}: ${readProblem(error)}`);
  }
  let baseline: BaselineFile;
  try {
    baseline = JSON.parse(text) as BaselineFile;
  } catch {
    throw new UserError(`cannot read baseline ${file}: not valid JSON`);
  }
  if (baseline?.version !== 1 || !Array.isArray(baseline.findings)) throw new UserError(`${file} is not a transcript-doctor baseline`);
  const known = new Map<string, number>();
  for (const finding of baseline.findings) {
    const key = fingerprint(finding.path, finding);
    known.set(key, (known.get(key) ?? 0) + 1);
  }
  return known;
}

/** The reports without the findings the baseline already knows (each known finding is used once). */
export function newSince(reports: readonly FileReport[], known: Map<string, number>): FileReport[] {
  const left = new Map(known);
  return reports.map((report) => ({
    ...report,
    findings: report.findings.filter((finding) => {
      const key = fingerprint(report.path, finding);
      const count = left.get(key) ?? 0;
      if (count === 0) return true;
      left.set(key, count - 1);
      return false;
    }),
  }));
}
