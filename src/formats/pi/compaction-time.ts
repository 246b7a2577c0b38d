import type { Analysis } from '../../model/analysis.js';
import { isObject } from '../json.js';

/**
 * The timestamp a compaction entry slim appends carries: no earlier than the leaf's and the last
 * replayed assistant message's. pi skips its compaction check for an assistant message stamped
 * at or before the latest compaction (agent-session.js, _checkCompaction), so the usage that
 * message recorded, which counted the history before slim, no longer decides a compaction.
 */
export function compactionTime(analysis: Analysis, read: (entry: number) => unknown): string {
  let latest = 0;
  for (const index of [analysis.tree.leaf, ...lastAssistant(analysis)]) latest = Math.max(latest, timeOf(read(index)));
  return new Date(latest > 0 ? latest : Date.now()).toISOString();
}

function lastAssistant(analysis: Analysis): number[] {
  const { context } = analysis.replay;
  for (let at = context.length - 1; at >= 0; at--) if (context.at(at).role === 'assistant') return [context.indices[at]!];
  return [];
}

function timeOf(value: unknown): number {
  if (!isObject(value)) return 0;
  const entry = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : 0;
  const message = isObject(value.message) && typeof value.message.timestamp === 'number' ? value.message.timestamp : 0;
  return Math.max(Number.isFinite(entry) ? entry : 0, message);
}
