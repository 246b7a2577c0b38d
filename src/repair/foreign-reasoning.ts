import type { Analysis } from '../model/analysis.js';
import { ASSISTANT } from '../model/entry-bits.js';
import type { Entry } from '../model/entry.js';
import { foreignReasoning } from '../providers/reasoning.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Reasoning another provider signed goes (foreign-signed-reasoning): its blocks, or the line when
 * it holds nothing else. The latest assistant turn's reasoning may not change at all, so that turn
 * goes whole, with the results of its calls.
 */
export function dropForeignReasoning(
  analysis: Analysis,
  views: readonly Entry[],
  groups: Map<number, Entry[]>,
  dropped: EntryMarks,
  drop: (entry: Entry) => void,
  dropLines: (lines: Entry[]) => void,
  builder: PlanBuilder,
): void {
  const foreign = foreignReasoning(analysis);
  if (foreign === undefined || foreign.found.length === 0) return;
  const store = analysis.entries;
  const { indices, messageIndex } = analysis.replay.context;
  let latest = -1;
  for (let at = indices.length - 1; at >= 0 && latest === -1; at--) if (messageIndex[at]! >= 0 && store.roleCode(indices[at]!) === ASSISTANT) latest = indices[at]!;
  const latestGroup = latest === -1 ? -1 : store.group(latest);
  for (const { at } of foreign.found) {
    const entry = views[indices[at]!]!;
    if (dropped.has(entry)) continue;
    if (entry.index === latest || (latestGroup !== -1 && store.group(entry.index) === latestGroup)) {
      const turn = latestGroup === -1 ? [views[latest]!] : groups.get(latestGroup) ?? [views[latest]!];
      dropLines(turn.filter((line) => !dropped.has(line)));
      builder.count('droppedAssistantMessages');
    } else if (entry.blockCount <= 1) {
      drop(entry);
      builder.count('droppedLines');
    } else {
      builder.edit(entry.line, { kind: 'drop-signed-reasoning' });
      builder.count('rewrittenEntries');
    }
  }
}
