import type { Analysis } from '../model/analysis.js';
import type { Entry, ToolCallRef } from '../model/entry.js';
import { resultAt, type CallOccurrence } from '../model/pairing.js';
import { freshCallId } from './fresh-call-id.js';
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
  dropped: Set<Entry>,
  builder: PlanBuilder,
): Map<CallOccurrence, string> {
  const renamed = new Map<CallOccurrence, string>();
  const kept = new Set<string>();
  let taken: Set<string> | undefined;
  for (const occurrence of occurrences) {
    const id = occurrence.call.id!;
    if (goes(occurrence)) continue;
    if (!kept.has(id)) {
      kept.add(id);
      continue;
    }
    taken ??= idsIn(analysis.entries);
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
export function trimCallNames(path: readonly Entry[], dropped: Set<Entry>, droppedCalls: Set<ToolCallRef>, builder: PlanBuilder): void {
  for (const entry of path) {
    if (dropped.has(entry)) continue;
    for (const call of entry.toolCalls ?? []) {
      if (droppedCalls.has(call) || call.name === undefined || call.name.trim() === call.name) continue;
      builder.edit(entry.line, { kind: 'set-call-name', block: call.blockIndex, name: call.name.trim() });
      builder.count('rewrittenEntries');
    }
  }
}
