import type { Analysis } from '../model/analysis.js';
import { isPairProblem, type KeptHistoryProblem } from '../model/entry.js';
import { keptProblemRefused } from '../providers/kept-history.js';
import type { PlanBuilder } from './plan-builder.js';
import type { RepairMode } from './plan.js';

/**
 * A record whose own replayed history has problems is rewritten without them (the format knows
 * how): broken pairs always, what a provider refuses when the one it is judged against does. A
 * turn of calls that opens the history from a line of its own gets a user message on a line
 * before the one where it takes its place.
 */
export function repairKeptHistories(analysis: Analysis, builder: PlanBuilder, mode: RepairMode): void {
  const entries = analysis.entries;
  const refused = new Map<KeptHistoryProblem['kind'], boolean>();
  // A rewind that wipes the history goes in this pass (repairReplayedLog): what the provider refuses is judged on the history that brings back, in the next.
  let wiped = false;
  for (const rare of entries.rare.values()) wiped ||= rare.wipesHistory !== undefined;
  const mended = (problem: KeptHistoryProblem) => {
    if (isPairProblem(problem)) return true;
    if (wiped) return false;
    if (!refused.has(problem.kind)) refused.set(problem.kind, keptProblemRefused(analysis, problem.kind));
    return refused.get(problem.kind)!;
  };
  for (const [i, rare] of entries.rare) {
    if (rare.keptHistoryProblems === undefined || builder.skipped(entries.line(i))) continue;
    const problems: KeptHistoryProblem[] = [];
    for (const problem of rare.keptHistoryProblems) {
      if (!mended(problem)) continue;
      if (problem.kind === 'calls-open-history' && problem.pointer === '') {
        if (problem.placedOn !== undefined) bridge(entries.line(problem.placedOn), builder);
      } else problems.push(problem);
    }
    if (problems.length === 0) continue;
    builder.edit(entries.line(i), { kind: 'fix-kept-history', mode, problems });
    builder.count('rewrittenEntries');
  }
}

function bridge(line: number, builder: PlanBuilder): void {
  builder.place(line - 1, { kind: 'new', value: { kind: 'bridge', role: 'user', timestampFrom: line } });
  builder.count('addedBridges');
}
