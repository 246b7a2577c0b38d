import { formats } from '../formats/registry.js';
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
  // Made at the first finding: most conversations of a dataset have none.
  let seen: Set<string> | undefined;
  // One context for every rule: rules run one at a time, and a file of conversations runs them all per line.
  let rule: Rule = rules[0]!;
  const context: RuleContext = {
    analysis,
    report(problem: Problem): void {
      const finding = toFinding(analysis, rule, problem);
      if (finding === undefined) return;
      const key = `${finding.rule}\u0000${finding.line}\u0000${finding.pointer}\u0000${finding.message}`;
      seen ??= new Set();
      if (seen.has(key)) return;
      seen.add(key);
      findings.push(finding);
    },
  };
  for (rule of rules) rule.check?.(context);
  const { everyEntry, someEntries, order } = layoutOf(rules);
  const entries = analysis.entries;
  const visit = (i: number, checks: readonly number[]) => {
    const entry = entries.at(i);
    for (const r of checks) (rule = rules[r]!).checkEntry!(entry, context);
  };
  if (everyEntry.length > 0) for (let i = 0; i < entries.length; i++) visit(i, everyEntry);
  if (someEntries.length > 0) for (const i of unusualEntries(entries)) visit(i, someEntries);
  return findings.sort((a, b) => a.line - b.line || order.get(a.rule)! - order.get(b.rule)!);
}

/** Which rules look at every entry, which at the unusual ones, and the order findings are listed in. */
interface Layout {
  everyEntry: number[];
  someEntries: number[];
  order: Map<string, number>;
}

/** Worked out once per rule list: a file of conversations runs the same rules on every line. */
const layouts = new WeakMap<readonly Rule[], Layout>();

function layoutOf(rules: readonly Rule[]): Layout {
  let layout = layouts.get(rules);
  if (layout !== undefined) return layout;
  const entryRules = (unusual: boolean) => rules.flatMap((rule, r) => (rule.checkEntry === undefined || (rule.entries === 'unusual') !== unusual ? [] : [r]));
  layout = { everyEntry: entryRules(false), someEntries: entryRules(true), order: new Map(rules.map((rule, i) => [rule.meta.id, i])) };
  layouts.set(rules, layout);
  return layout;
}

function toFinding(analysis: Analysis, rule: Rule, problem: Problem): Finding | undefined {
  let severity = rule.meta.severity;
  // Lower when the rule knows the problem is milder here; higher only where a named provider's contract makes it certain.
  if (problem.severity !== undefined && (SEVERITY_RANK[problem.severity] < SEVERITY_RANK[severity] || problem.raise === true)) severity = problem.severity;
  let message = problem.message;
  const entry = problem.entry;
  if (entry !== undefined && entry.kind !== 'header') {
    const status = analysis.status(entry.index);
    const scope = problem.path?.scope;
    // Other views share history with the replayed path; that part is judged on the replayed path.
    // A sub-agent's conversation shares none: it is judged whole, as the agent sends it.
    if (scope !== undefined && scope !== 'replay' && scope !== 'agent' && status !== scope) return undefined;
    if (scope === 'agent') message = message.replace(/\.?$/, ` (in the conversation of sub-agent ${problem.path!.agent}).`);
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
  // What a client heals on resume is its main conversation: Copilot CLI 1.0.102 leaves a sub-agent's unanswered call as it is (tried).
  const healing = problem.path?.scope === 'agent' ? undefined : healingOf(analysis, rule.meta.id);
  if (healing !== undefined) finding.healedBy = healing;
  return finding;
}

/** What the file's client does about a rule's findings on resume, when it heals them (see TranscriptFormat.heals). */
function healingOf(analysis: Analysis, rule: string): Finding['healedBy'] {
  const name = analysis.transcript.format;
  if (name === undefined) return undefined;
  return formats.find((format) => format.name === name)?.heals?.[rule];
}
