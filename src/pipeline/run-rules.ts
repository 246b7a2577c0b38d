import type { Analysis, ReplayStatus } from '../model/analysis.js';
import { unusualEntries } from '../model/unusual-entries.js';
import type { Problem, Rule, RuleContext, Severity } from '../rules/rule.js';
import { SEVERITY_RANK, type Finding } from './finding.js';

const LOWER: Record<Severity, Severity> = { error: 'warning', warning: 'info', info: 'info' };

const NOT_REPLAYED: Record<Exclude<ReplayStatus, 'replayed'>, string> = {
  abandoned: '; not replayed (abandoned branch).',
  compacted: '; not replayed (compacted away).',
};

/**
 * Runs rules over one analysed file. Problems on entries the agent would not replay are
 * reported one severity lower and say so; a problem found again on another path is kept once.
 */
export function runRules(analysis: Analysis, rules: readonly Rule[]): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const contexts = rules.map((rule): RuleContext => ({
    analysis,
    report(problem: Problem): void {
      const finding = toFinding(analysis, rule, problem);
      if (finding === undefined) return;
      const key = `${finding.rule}\u0000${finding.line}\u0000${finding.pointer}\u0000${finding.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      findings.push(finding);
    },
  }));
  rules.forEach((rule, r) => rule.check?.(contexts[r]!));
  const perEntry = (unusual: boolean) =>
    rules.flatMap((rule, r) => (rule.checkEntry === undefined || (rule.entries === 'unusual') !== unusual ? [] : [{ check: rule.checkEntry, context: contexts[r]! }]));
  const entries = analysis.entries;
  const everyEntry = perEntry(false);
  if (everyEntry.length > 0) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries.at(i);
      for (const { check, context } of everyEntry) check(entry, context);
    }
  }
  const someEntries = perEntry(true);
  if (someEntries.length > 0) {
    for (const i of unusualEntries(entries)) {
      const entry = entries.at(i);
      for (const { check, context } of someEntries) check(entry, context);
    }
  }
  const order = new Map(rules.map((rule, i) => [rule.meta.id, i]));
  return findings.sort((a, b) => a.line - b.line || order.get(a.rule)! - order.get(b.rule)!);
}

function toFinding(analysis: Analysis, rule: Rule, problem: Problem): Finding | undefined {
  let severity = rule.meta.severity;
  // Lower when the rule knows the problem is milder here; higher only where a named provider's contract makes it certain.
  if (problem.severity !== undefined && (SEVERITY_RANK[problem.severity] < SEVERITY_RANK[severity] || problem.raise === true)) severity = problem.severity;
  let message = problem.message;
  const entry = problem.entry;
  if (entry !== undefined && entry.kind !== 'header') {
    const status = analysis.status(entry.index);
    // Other views share history with the replayed path; that part is judged on the replayed path.
    if (problem.path !== undefined && problem.path.scope !== 'replay' && status !== problem.path.scope) return undefined;
    if (status !== 'replayed') {
      severity = LOWER[severity];
      message = message.replace(/\.?$/, NOT_REPLAYED[status]);
    }
  }
  const finding: Finding = {
    rule: rule.meta.id,
    severity,
    line: entry?.line ?? problem.line ?? 0,
    pointer: problem.pointer ?? '',
    message,
  };
  if (problem.providerError !== undefined) finding.providerError = problem.providerError;
  return finding;
}
