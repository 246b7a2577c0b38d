import type { Analysis } from '../model/analysis.js';
import { selfAnsweredEnding } from '../model/trailing-turn.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * For an agent that answers the ending of a conversation itself on resume (see
 * selfAnsweredEnding), the turn it would add is written: after the last line of the conversation,
 * hanging on it, so the history the agent sends is the file's. Planned once nothing else is left
 * to fix, since other fixes decide where the conversation ends. The new line borrows its time from
 * the line of the tool results it answers, when the format found those (see Entry.trailingResults).
 */
export function closeTrailingTurn(analysis: Analysis, builder: PlanBuilder, newId: (seed: string) => string): void {
  const index = selfAnsweredEnding(analysis);
  if (index === undefined || analysis.tree.leaf === -1) return;
  const leaf = analysis.entries.at(analysis.tree.leaf);
  const from = analysis.entries.at(index).trailingResults === true ? analysis.entries.line(index) : leaf.line;
  builder.place(leaf.line, { kind: 'new', value: { kind: 'bridge', role: 'assistant', closing: true, id: newId(`closing:${leaf.line}`), parentId: leaf.id, timestampFrom: from } });
  builder.count('addedBridges');
}
