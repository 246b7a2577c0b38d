import type { FileReport } from '../pipeline/finding.js';
import type { Severity } from '../rules/rule.js';
import { findRule } from '../rules/index.js';

export interface RuleCount {
  rule: string;
  severity: Severity;
  count: number;
  /** The rule's fix as `rules` lists it: safe, unsafe, or '-' for none (or a rule this version does not know). */
  fix: string;
}

/**
 * Findings counted per rule over every file (Ruff's --statistics), most frequent first, then by
 * rule id. A rule whose severity differs between files (merged reports) has a row per severity.
 */
export function ruleCounts(reports: readonly FileReport[]): RuleCount[] {
  const counts = new Map<string, RuleCount>();
  for (const report of reports) {
    for (const { rule, severity } of report.findings) {
      const key = `${rule}\u0000${severity}`;
      const row = counts.get(key);
      if (row !== undefined) row.count += 1;
      else counts.set(key, { rule, severity, count: 1, fix: fixOf(rule) });
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
}

function fixOf(id: string): string {
  const fix = findRule(id)?.meta.fix;
  return fix === undefined || fix === 'none' ? '-' : fix;
}
