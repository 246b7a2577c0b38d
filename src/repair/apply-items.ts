import type { Encoder } from '../formats/format.js';
import type { Placement, RepairPlan } from './plan.js';

/**
 * A plan made for one conversation's items (item i planned as line i + 1) applied to the items:
 * kept items are the same objects, edited in place, so a span-preserving writer copies every
 * value it did not change; moved items are written where the plan places them, new ones made by
 * the shape's encoder, stamped `at` where the item they copy a time from has none.
 */
export function applyToItems(items: readonly unknown[], plan: RepairPlan, encoder: Encoder, at: Date): unknown[] {
  const out: unknown[] = [];
  const put = (line: number): void => {
    const item = items[line - 1];
    const edits = plan.edits.get(line);
    if (edits !== undefined) encoder.apply(item, edits);
    out.push(item);
  };
  const place = (placement: Placement): void => {
    if (placement.kind === 'move') return put(placement.line);
    if (placement.kind === 'record') return void out.push(placement.value);
    const from = placement.value.timestampFrom;
    out.push(encoder.create(placement.value, from === undefined ? undefined : items[from - 1], at));
  };
  plan.after.get(0)?.forEach(place);
  for (let line = 1; line <= items.length; line++) {
    if (!plan.skip.has(line)) put(line);
    plan.after.get(line)?.forEach(place);
  }
  return out;
}
