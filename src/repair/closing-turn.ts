import type { Analysis } from '../model/analysis.js';
import { unansweredTurn } from '../model/trailing-turn.js';
import { semanticsOf } from '../model/transcript.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * For an agent that answers a trailing user turn itself on resume (see
 * ReplaySemantics.answersTrailingUser), the turn it would add is written: after the last line of
 * the conversation, hanging on it, so the history the agent sends is the file's. Planned once
 * nothing else is left to fix, since other fixes decide where the conversation ends.
 */
export function closeTrailingTurn(analysis: Analysis, builder: PlanBuilder, newId: (seed: string) => string): void {
  if (!semanticsOf(analysis.transcript).answersTrailingUser || analysis.transcript.live !== undefined) return;
  if (unansweredTurn(analysis) === undefined || analysis.tree.leaf === -1) return;
  const leaf = analysis.entries.at(analysis.tree.leaf);
  builder.place(leaf.line, { kind: 'new', value: { kind: 'bridge', role: 'assistant', closing: true, id: newId(`closing:${leaf.line}`), parentId: leaf.id, timestampFrom: leaf.line } });
  builder.count('addedBridges');
}
