import type { PathItems } from './context.js';
import { isFailed, type Entry, type ToolCallRef, type ToolResultRef } from './entry.js';

/** Where a result sits: the context position of its message and its index among the message's results. */
export interface ResultSlot {
  at: number;
  k: number;
}

/** One tool call on a path, and what answers it. Positions are indices into the context. */
export interface CallOccurrence {
  /** Context position of the assistant message. */
  at: number;
  call: ToolCallRef;
  /** Position among the message's calls. */
  order: number;
  /** The result that answers it, if any. */
  result?: ResultSlot;
}

export interface DuplicateResult extends ResultSlot {
  occurrence: CallOccurrence;
}

export interface FailedTurnResult extends ResultSlot {
  /** Context position of the failed assistant whose call it answers. */
  assistantAt: number;
}

export interface DuplicateCall {
  occurrence: CallOccurrence;
  first: CallOccurrence;
}

/**
 * Tool-call / tool-result pairing along one path's context, judged with OpenClaw's strict definition:
 * every successful assistant with N calls is followed immediately by its N results, in call
 * order, each id answered exactly once. Calls are tracked as occurrences (ids can repeat across
 * turns); a result claims the oldest unanswered occurrence of its id in the latest message that
 * called that id before it (results after a newer call of an id are that call's, not an older
 * one's), and a real result takes the place of a synthetic one, as OpenClaw's latest pairing does.
 */
export interface Pairing {
  /** Every call (empty for views that keep only the problems). */
  occurrences: CallOccurrence[];
  missing: CallOccurrence[];
  /** Answered, but something other than results sits between call and result. */
  displaced: CallOccurrence[];
  /** Answered right after the call, but not in call order. */
  outOfOrder: CallOccurrence[];
  duplicates: DuplicateResult[];
  orphans: ResultSlot[];
  failedTurnResults: FailedTurnResult[];
  duplicateCalls: DuplicateCall[];
}

/** Which of an assistant's calls take part in pairing; repair leaves out calls it is about to drop. */
export type CallFilter = (entry: Entry) => readonly ToolCallRef[];

const allCalls: CallFilter = (entry) => entry.toolCalls ?? [];

export function analyzePairing(items: PathItems, callsOf: CallFilter = allCalls, keepOccurrences = true): Pairing {
  const pairing: Pairing = {
    occurrences: [],
    missing: [],
    displaced: [],
    outOfOrder: [],
    duplicates: [],
    orphans: [],
    failedTurnResults: [],
    duplicateCalls: [],
  };
  const unanswered = new Map<string, CallOccurrence[]>();
  const answered = new Map<string, CallOccurrence>();
  const firstCall = new Map<string, CallOccurrence>();
  const failedCalls = new Map<string, number>();

  for (let at = 0; at < items.length; at++) {
    const entry = items.at(at)!;
    if (entry.role === 'assistant' && entry.toolCalls !== undefined) {
      if (isFailed(entry)) {
        for (const call of entry.toolCalls) if (call.id !== undefined) failedCalls.set(call.id, at);
        continue;
      }
      callsOf(entry).forEach((call, order) => {
        if (call.id === undefined) return;
        const occurrence: CallOccurrence = { at, call, order, result: undefined };
        pairing.occurrences.push(occurrence);
        const first = firstCall.get(call.id);
        if (first === undefined) firstCall.set(call.id, occurrence);
        else pairing.duplicateCalls.push({ occurrence, first });
        // A result answers the latest call of its id before it: a newer call of the same id ends the wait of older ones.
        const queue = unanswered.get(call.id);
        if (queue === undefined || !sameMessage(items, queue[0]!.at, at)) unanswered.set(call.id, [occurrence]);
        else queue.push(occurrence);
      });
      continue;
    }
    if (entry.role !== 'toolResult') continue;
    entry.toolResults?.forEach((result, k) => {
      const slot: ResultSlot = { at, k };
      const id = result.callId;
      const queue = id === undefined ? undefined : unanswered.get(id);
      if (id !== undefined && queue !== undefined && queue.length > 0) {
        const occurrence = queue.shift()!;
        if (queue.length === 0) unanswered.delete(id);
        occurrence.result = slot;
        answered.set(id, occurrence);
        return;
      }
      const claimed = id === undefined ? undefined : answered.get(id);
      if (claimed !== undefined) {
        const kept = resultAt(items, claimed.result!);
        if (kept.synthetic && !result.synthetic) {
          pairing.duplicates.push({ ...claimed.result!, occurrence: claimed });
          claimed.result = slot;
        } else {
          pairing.duplicates.push({ ...slot, occurrence: claimed });
        }
        return;
      }
      const failedAt = id === undefined ? undefined : failedCalls.get(id);
      if (failedAt !== undefined) pairing.failedTurnResults.push({ ...slot, assistantAt: failedAt });
      else pairing.orphans.push(slot);
    });
  }

  classifyPlacement(items, pairing);
  // Views other than the replayed path only need the problems; a huge file holds one occurrence per call.
  if (!keepOccurrences) pairing.occurrences = [];
  return pairing;
}

/** Two context positions hold (lines of) one message. */
function sameMessage(items: PathItems, a: number, b: number): boolean {
  const group = items.at(a)!.group;
  return a === b || (group !== undefined && group === items.at(b)!.group);
}

/** A message written over several lines ends at its group's last line; its results follow that. */
export function lastLineOf(items: PathItems, at: number): number {
  const group = items.at(at)!.group;
  let end = at;
  while (group !== undefined && end + 1 < items.length && items.at(end + 1)!.group === group) end += 1;
  return end;
}

/** The result in a slot. */
export function resultAt(items: PathItems, slot: ResultSlot): ToolResultRef {
  return items.at(slot.at)!.toolResults![slot.k]!;
}

/** Answered calls are either in the run of results right after their assistant, or displaced. */
function classifyPlacement(items: PathItems, pairing: Pairing): void {
  let last: ResultSlot | undefined;
  let runAssistant = -1;
  for (const occurrence of pairing.occurrences) {
    const slot = occurrence.result;
    if (slot === undefined) {
      pairing.missing.push(occurrence);
      continue;
    }
    const messageEnd = lastLineOf(items, occurrence.at);
    let runEnd = messageEnd + 1;
    while (runEnd < items.length && items.at(runEnd)!.role === 'toolResult') runEnd += 1;
    if (slot.at >= runEnd || slot.at <= messageEnd) {
      pairing.displaced.push(occurrence);
      continue;
    }
    if (runAssistant !== messageEnd) {
      runAssistant = messageEnd;
      last = undefined;
    }
    if (last !== undefined && (slot.at < last.at || (slot.at === last.at && slot.k < last.k))) pairing.outOfOrder.push(occurrence);
    else last = slot;
  }
}
