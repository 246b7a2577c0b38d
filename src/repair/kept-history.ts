import type { Analysis } from '../model/analysis.js';
import { isPairProblem, type KeptHistoryProblem } from '../model/entry.js';
import { keptProblemRefused } from '../providers/kept-history.js';
import type { PlanBuilder } from './plan-builder.js';
import type { RepairMode } from './plan.js';

/**
 * A record whose own replayed history has problems is rewritten without them (the format knows
 * how): broken pairs always, what a provider refuses when the one it is judged against does. A
 * turn of calls that opens the history gets a user message before the copy of its message that
 * holds its place: in that copy's list, or on a line before that copy's own line.
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
  // One edit a line: the problems of a list are mended together, so none moves another's place.
  const byLine = new Map<number, KeptHistoryProblem[]>();
  const add = (line: number, problem: KeptHistoryProblem) => {
    const earlier = byLine.get(line);
    if (earlier === undefined) byLine.set(line, [problem]);
    else earlier.push(problem);
  };
  for (const [i, rare] of entries.rare) {
    if (rare.keptHistoryProblems === undefined) continue;
    for (const problem of rare.keptHistoryProblems) {
      if (!mended(problem)) continue;
      if (problem.kind !== 'calls-open-history') add(entries.line(i), problem);
      else if (problem.placed?.pointer === '') bridge(entries.line(problem.placed.entry), builder);
      else if (problem.placed !== undefined) add(entries.line(problem.placed.entry), { ...problem, pointer: problem.placed.pointer });
    }
  }
  for (const [line, problems] of byLine) {
    if (builder.skipped(line)) continue;
    builder.edit(line, { kind: 'fix-kept-history', mode, problems });
    builder.count('rewrittenEntries');
  }
}

function bridge(line: number, builder: PlanBuilder): void {
  if (builder.skipped(line)) return;
  builder.place(line - 1, { kind: 'new', value: { kind: 'bridge', role: 'user', timestampFrom: line } });
  builder.count('addedBridges');
}
