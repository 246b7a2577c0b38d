import type { Analysis } from '../model/analysis.js';
import type { Entry } from '../model/entry.js';
import type { CallOccurrence } from '../model/occurrences.js';
import { resultAt } from '../model/pairing.js';
import { idBreaks, idRuleOf } from '../providers/id-rule.js';
import { idForShape } from '../providers/id-shape.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Calls whose id the chosen provider refuses (tool-call-id-format) get an id in its shape, and
 * the result that answers each names it in the same plan; `renamed` learns it too, so a result the
 * repair adds names the new id. The new id comes from the id the call keeps after a reuse was
 * renamed, and is fresh against every id in the file: a repeat run finds every id in shape.
 */
export function renameForProvider(
  analysis: Analysis,
  /** Asked for only when the provider has an id shape: they are made on first use. */
  occurrences: () => readonly CallOccurrence[],
  items: readonly Entry[],
  goes: (occurrence: CallOccurrence) => boolean,
  dropped: EntryMarks,
  renamed: Map<CallOccurrence, string>,
  builder: PlanBuilder,
): void {
  const rule = idRuleOf(analysis);
  if (rule === undefined) return;
  const store = analysis.entries;
  // Judged once per distinct id by its handle: 1 fine, 2 refused.
  const verdicts = new Uint8Array(store.callIds.count);
  let taken: Set<string> | undefined;
  for (const occurrence of occurrences()) {
    // A call the file holds no id for (Gemini's are optional) has none to rename.
    if (goes(occurrence) || occurrence.call.anonymous) continue;
    const reused = renamed.get(occurrence);
    const handle = store.callId[occurrence.row]!;
    if (reused === undefined) {
      if (verdicts[handle] === 0) verdicts[handle] = idBreaks(rule, store.callIds.text(handle)) === undefined ? 1 : 2;
      if (verdicts[handle] === 1) continue;
    } else if (idBreaks(rule, reused) === undefined) continue;
    taken ??= idsIn(analysis);
    const id = idForShape(rule.shape, reused ?? occurrence.call.id!, (candidate) => taken!.has(candidate));
    taken.add(id);
    renamed.set(occurrence, id);
    builder.edit(items[occurrence.at]!.line, { kind: 'set-call-id', block: occurrence.call.blockIndex, id });
    builder.count('renamedToolCalls');
    const slot = occurrence.result;
    if (slot !== undefined && !dropped.has(items[slot.at]!)) builder.edit(items[slot.at]!.line, { kind: 'set-result-id', pointer: resultAt(items, slot).pointer, id });
  }
}

/** The ids the calls and results of this store name (its table may be shared with other conversations). */
function idsIn(analysis: Analysis): Set<string> {
  const store = analysis.entries;
  const ids = new Set<string>();
  for (let k = 0; k < store.calls; k++) if (store.callId[k] !== -1) ids.add(store.callIds.text(store.callId[k]!));
  for (let k = 0; k < store.results; k++) if (store.resultCallId[k] !== -1) ids.add(store.callIds.text(store.resultCallId[k]!));
  return ids;
}
