import type { Analysis } from '../model/analysis.js';
import type { Entry, ToolCallRef } from '../model/entry.js';
import type { EntryStore } from '../model/entry-store.js';
import type { CallOccurrence } from '../model/occurrences.js';
import { resultAt } from '../model/pairing.js';
import { freshCallId } from './fresh-call-id.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * A call that reuses the id of an earlier call that stays gets a fresh id in the same shape, and
 * the result that answers it (the one pairing gave it: after it, before the next call with that
 * id) names the new id in the same plan. Ids are fresh against every id in the file.
 */
export function renameReusedIds(
  analysis: Analysis,
  occurrences: readonly CallOccurrence[],
  items: readonly Entry[],
  goes: (occurrence: CallOccurrence) => boolean,
  dropped: EntryMarks,
  builder: PlanBuilder,
): Map<CallOccurrence, string> {
  const renamed = new Map<CallOccurrence, string>();
  // By id handle: only the ids that need a new one are spelled out.
  const store = analysis.entries;
  const kept = new Uint8Array(store.callIds.count);
  let taken: Set<string> | undefined;
  for (const occurrence of occurrences) {
    if (goes(occurrence)) continue;
    const handle = store.callId[occurrence.row]!;
    if (kept[handle] === 0) {
      kept[handle] = 1;
      continue;
    }
    const id = occurrence.call.id!;
    taken ??= idsIn(store);
    const fresh = freshCallId(id, (candidate) => taken!.has(candidate));
    taken.add(fresh);
    renamed.set(occurrence, fresh);
    builder.edit(items[occurrence.at]!.line, { kind: 'set-call-id', block: occurrence.call.blockIndex, id: fresh });
    builder.count('renamedToolCalls');
    const slot = occurrence.result;
    if (slot !== undefined && !dropped.has(items[slot.at]!)) {
      builder.edit(items[slot.at]!.line, { kind: 'set-result-id', pointer: resultAt(items, slot).pointer, id: fresh });
    }
  }
  return renamed;
}

function idsIn(entries: Iterable<Entry>): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    for (const call of entry.toolCalls ?? []) if (call.id !== undefined) ids.add(call.id);
    for (const result of entry.toolResults ?? []) if (result.callId !== undefined) ids.add(result.callId);
  }
  return ids;
}

/** Names with surrounding whitespace are trimmed, as OpenClaw does before it sends them. */
export function trimCallNames(path: readonly Entry[], store: EntryStore, dropped: EntryMarks, droppedCalls: Set<ToolCallRef>, builder: PlanBuilder): void {
  for (const entry of path) {
    if (!store.hasCalls(entry.index) || dropped.has(entry)) continue;
    const first = store.callStart(entry.index);
    for (let k = first, end = store.callEnd(entry.index); k < end; k++) {
      // Names are judged once each: a call is read only when its name has padding.
      if (!store.callNamePadded(k)) continue;
      const call = entry.toolCalls![k - first]!;
      if (droppedCalls.has(call)) continue;
      builder.edit(entry.line, { kind: 'set-call-name', block: call.blockIndex, name: call.name!.trim() });
      builder.count('rewrittenEntries');
    }
  }
}
