import type { EntryStore } from '../model/entry-store.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Lines the agent skips because it cannot read their item get what it needs back, when the
 * format could tell what that is: the item's lost type (see Entry.lostType), or the type each
 * unreadable content part reads as (see Entry.unreadableParts), or the value a schema allows
 * alone (see Entry.schemaBreaks). True when it planned any: the
 * items are judged in the next pass, as the agent will read them, like records split off a
 * glued line.
 */
export function restoreItemTypes(entries: EntryStore, builder: PlanBuilder): boolean {
  let restored = false;
  for (const [index, rare] of entries.rare) {
    if (rare.lostType !== undefined && rare.lostType !== '') {
      builder.edit(entries.line(index), { kind: 'set-item-type', type: rare.lostType });
    } else if (rare.unreadableParts?.every((part) => part.readAs !== undefined) === true) {
      builder.edit(entries.line(index), { kind: 'retype-parts' });
    } else if (rare.schemaBreaks?.some((found) => found.fixable) === true) {
      builder.edit(entries.line(index), { kind: 'fix-schema' });
    } else continue;
    builder.count('rewrittenEntries');
    restored = true;
  }
  return restored;
}
