import type { EntryStore } from '../model/entry-store.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Lines the agent skips for want of their item type get it back, when the format could tell it
 * (see Entry.lostType). True when it planned any: the items are judged in the next pass, as the
 * agent will read them, like records split off a glued line.
 */
export function restoreItemTypes(entries: EntryStore, builder: PlanBuilder): boolean {
  let restored = false;
  for (const [index, rare] of entries.rare) {
    if (rare.lostType === undefined || rare.lostType === '') continue;
    builder.edit(entries.line(index), { kind: 'set-item-type', type: rare.lostType });
    builder.count('rewrittenEntries');
    restored = true;
  }
  return restored;
}
