import type { EntryStore } from '../model/entry-store.js';
import { firstSequenceBreak } from '../model/sequence.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Numbers a numbered file's lines again from the first one out of count: each line from there
 * on gets the number after the previous line's. Planned only once nothing else is left to fix,
 * since other fixes drop and add lines: the pass after them numbers what they wrote.
 */
export function renumberLines(entries: EntryStore, builder: PlanBuilder): void {
  const found = firstSequenceBreak(entries);
  if (found === undefined) return;
  for (let i = found.index, value = found.expected; i < entries.length; i++, value++) {
    if (entries.sequence(i) === value) continue;
    builder.edit(entries.line(i), { kind: 'set-sequence', value });
    builder.count('rewrittenEntries');
  }
}
