import type { EntryStore } from '../model/entry-store.js';
import type { PlanBuilder } from './plan-builder.js';
import type { RepairMode } from './plan.js';

/** A compaction whose own kept history has broken pairs is rewritten with them paired (the format knows how). */
export function repairKeptHistories(entries: EntryStore, builder: PlanBuilder, mode: RepairMode): void {
  for (const [i, rare] of entries.rare) {
    if (rare.keptHistoryProblems === undefined || builder.skipped(entries.line(i))) continue;
    builder.edit(entries.line(i), { kind: 'fix-kept-history', mode, problems: rare.keptHistoryProblems });
    builder.count('rewrittenEntries');
  }
}
