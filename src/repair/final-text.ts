import type { Analysis } from '../model/analysis.js';
import { ASSISTANT } from '../model/entry-bits.js';
import type { Entry } from '../model/entry.js';
import { enforcedTerm } from '../providers/choose.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * A history that ends with an assistant message whose text ends in whitespace loses that
 * whitespace, for providers that take a final assistant message as a prefill
 * (final-assistant-whitespace). Only the text changes: its reasoning blocks stay as they are.
 */
export function trimFinalText(analysis: Analysis, views: readonly Entry[], dropped: EntryMarks, builder: PlanBuilder): void {
  if (enforcedTerm(analysis, 'final-assistant-whitespace') === undefined) return;
  const store = analysis.entries;
  const { indices, messageIndex } = analysis.replay.context;
  for (let at = indices.length - 1; at >= 0; at--) {
    if (messageIndex[at] === -1) continue;
    const entry = views[indices[at]!]!;
    if (store.roleCode(entry.index) !== ASSISTANT || store.rare.get(entry.index)?.trailingWhitespace !== true || dropped.has(entry)) return;
    builder.edit(entry.line, { kind: 'trim-final-text' });
    builder.count('rewrittenEntries');
    return;
  }
}
