import type { Analysis } from '../model/analysis.js';
import { ASSISTANT } from '../model/entry-bits.js';
import type { Entry } from '../model/entry.js';
import { semanticsOf } from '../model/transcript.js';
import { foreignReasoning, reasoningIsItem } from '../providers/reasoning.js';
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
  const latest = latestTurn(analysis, views, groups);
  const partsSigned = semanticsOf(analysis.transcript).partsSigned === true;
  for (const { at } of foreign.found) {
    const entry = views[analysis.replay.context.indices[at]!]!;
    if (dropped.has(entry)) continue;
    if (latest.includes(entry)) {
      dropLines(latest.filter((line) => !dropped.has(line)));
      builder.count('droppedAssistantMessages');
    } else if (entry.blockCount <= 1 && !partsSigned) {
      drop(entry);
      builder.count('droppedLines');
    } else {
      builder.edit(entry.line, { kind: 'drop-signed-reasoning' });
      builder.count('rewrittenEntries');
    }
  }
}

/**
 * The lines of the latest assistant message sent: every line of its group (Claude Code writes a
 * block per line, results between them); in a Responses history, where all model output shares
 * one group, the run of items that make its response.
 */
function latestTurn(analysis: Analysis, views: readonly Entry[], groups: Map<number, Entry[]>): Entry[] {
  const store = analysis.entries;
  const { indices, messageIndex } = analysis.replay.context;
  let last = -1;
  for (let at = indices.length - 1; at >= 0 && last === -1; at--) if (messageIndex[at]! >= 0 && store.roleCode(indices[at]!) === ASSISTANT) last = at;
  if (last === -1) return [];
  const latest = indices[last]!;
  if (reasoningIsItem(analysis)) {
    const turn: Entry[] = [];
    for (let at = last; at >= 0 && (messageIndex[at] === -1 || messageIndex[at] === messageIndex[last]); at--) if (messageIndex[at] !== -1) turn.unshift(views[indices[at]!]!);
    return turn;
  }
  const group = store.group(latest);
  return group === -1 ? [views[latest]!] : groups.get(group) ?? [views[latest]!];
}
