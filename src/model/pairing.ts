import type { PathItems } from './context.js';
import type { ToolResultRef } from './entry.js';
import { ASSISTANT, outcomeCode, OUTCOME_SHIFT, TOOL_RESULT } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';
import { IdSlots } from './id-slots.js';
import { OccurrenceColumns, type CallOccurrence, type OccurrenceIndex, type ResultSlot } from './occurrences.js';

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
  /** Every call, made on first use: a huge file's path holds hundreds of thousands. */
  readonly occurrences: CallOccurrence[];
  missing: CallOccurrence[];
  /** Answered, but something other than results sits between call and result. */
  displaced: CallOccurrence[];
  /** Answered right after the call, but not in call order. */
  outOfOrder: CallOccurrence[];
  duplicates: DuplicateResult[];
  orphans: ResultSlot[];
  failedTurnResults: FailedTurnResult[];
  duplicateCalls: DuplicateCall[];
  /** Every call by number, read without making its object: a repair looks at a few messages' calls one by one, not all. */
  readonly byNumber: OccurrenceIndex;
}

/** The entries of a path: the store, each position's entry index, and each position as an entry. */
export interface PairingInput {
  store: EntryStore;
  indices: ArrayLike<number>;
  items: PathItems;
}

/** Which calls (by their index in the store's call table) take part; repair leaves out calls it is about to drop. */
export type CallFilter = (call: number) => boolean;

const ERROR = outcomeCode('error');
const ABORTED = outcomeCode('aborted');
const SYNTHETIC = 1;

/**
 * Pairs calls and results over the store's columns. Occurrences live in integer columns; objects
 * are made only for the problems found and for code that asks for every occurrence.
 */
export function analyzePairing({ store, indices, items }: PairingInput, takesPart: CallFilter = () => true): Pairing {
  // A conversation without tool calls or results (a plain chat) has nothing to pair.
  if (store.calls === 0 && store.results === 0) return unpaired();
  // Each call takes part at most once: columns the size of the path's calls (a file of many short branches holds many pairings).
  const occurrences = new OccurrenceColumns(store, items, callsOn(store, indices));
  const duplicateCallPairs: Array<[number, number]> = [];
  const duplicates: Array<{ at: number; k: number; occurrence: number }> = [];
  const orphans: ResultSlot[] = [];
  const failedTurnResults: FailedTurnResult[] = [];
  const byId = IdSlots.of(store);
  const groupAt = (at: number) => store.group(indices[at]!);
  try {

  for (let at = 0; at < indices.length; at++) {
    const entry = indices[at]!;
    const role = store.roleCode(entry);
    if (role === ASSISTANT && store.hasCalls(entry)) {
      const start = store.callStart(entry);
      const end = store.callEnd(entry);
      const outcome = (store.info[entry]! >> OUTCOME_SHIFT) & 0xf;
      if (outcome === ERROR || outcome === ABORTED) {
        for (let k = start; k < end; k++) if (store.callId[k] !== -1) byId.set(byId.failedAt, store.callId[k]!, at);
        continue;
      }
      let order = 0;
      for (let k = start; k < end; k++) {
        if (!takesPart(k)) continue;
        const position = order++;
        const id = store.callId[k]!;
        if (id === -1) continue;
        const occurrence = occurrences.add(at, k, position);
        const first = byId.get(byId.firstCall, id);
        if (first === -1) byId.set(byId.firstCall, id, occurrence);
        else duplicateCallPairs.push([occurrence, first]);
        // A result answers the latest call of its id before it: a newer call of the same id ends the wait of older ones.
        const head = byId.get(byId.openHead, id);
        const sameMessage = head !== -1 && (occurrences.at[head] === at || (groupAt(at) !== -1 && groupAt(occurrences.at[head]!) === groupAt(at)));
        if (!sameMessage) byId.set(byId.openHead, id, occurrence);
        else occurrences.next[byId.get(byId.openTail, id)] = occurrence;
        byId.set(byId.openTail, id, occurrence);
      }
      continue;
    }
    if (role !== TOOL_RESULT || !store.hasResults(entry)) continue;
    const start = store.resultStart(entry);
    const end = store.resultEnd(entry);
    for (let r = start; r < end; r++) {
      const k = r - start;
      const id = store.resultCallId[r]!;
      const occurrence = id === -1 ? -1 : byId.get(byId.openHead, id);
      if (occurrence !== -1) {
        byId.set(byId.openHead, id, occurrences.next[occurrence]!);
        occurrences.answer(occurrence, at, k);
        byId.set(byId.answered, id, occurrence);
        continue;
      }
      const claimed = id === -1 ? -1 : byId.get(byId.answered, id);
      if (claimed !== -1) {
        const keptAt = occurrences.resultAt[claimed]!;
        const keptK = occurrences.resultK[claimed]!;
        const kept = store.resultStart(indices[keptAt]!) + keptK;
        if ((store.resultFlags[kept]! & SYNTHETIC) !== 0 && (store.resultFlags[r]! & SYNTHETIC) === 0) {
          duplicates.push({ at: keptAt, k: keptK, occurrence: claimed });
          occurrences.answer(claimed, at, k);
        } else {
          duplicates.push({ at, k, occurrence: claimed });
        }
        continue;
      }
      const failedAt = id === -1 ? -1 : byId.get(byId.failedAt, id);
      if (failedAt !== -1) failedTurnResults.push({ at, k, assistantAt: failedAt });
      else orphans.push({ at, k });
    }
  }
  } finally {
    byId.release();
  }

  const unclaimed = claimEarlyResults(store, indices, occurrences, orphans);
  const placement = classifyPlacement(store, indices, occurrences);
  const object = (n: number) => occurrences.object(n);
  return new ColumnPairing(occurrences, {
    missing: placement.missing.map(object),
    displaced: placement.displaced.map(object),
    outOfOrder: placement.outOfOrder.map(object),
    duplicates: duplicates.map(({ at, k, occurrence }) => ({ at, k, occurrence: object(occurrence) })),
    orphans: unclaimed,
    failedTurnResults,
    duplicateCalls: duplicateCallPairs.map(([occurrence, first]) => ({ occurrence: object(occurrence), first: object(first) })),
  });
}

/** The calls of a path's entries. */
function callsOn(store: EntryStore, indices: ArrayLike<number>): number {
  let calls = 0;
  for (let at = 0; at < indices.length; at++) if (store.hasCalls(indices[at]!)) calls += store.callEnd(indices[at]!) - store.callStart(indices[at]!);
  return calls;
}

/** What a pairing found, besides its occurrences. */
type Found = Omit<Pairing, 'occurrences' | 'byNumber'>;
interface ColumnPairing extends Found {}

/**
 * A pairing whose occurrences are made on first use. A class, not an object literal with a
 * getter: V8 gives each such literal a hidden class of its own, held in old space, and that
 * keeps the getter's closure, and with it the whole path, alive past every young collection
 * until a full one (a file of conversations pairs a path per line). Its lists are declared by the
 * interface of the same name and set from what the pairing found.
 */
class ColumnPairing implements Pairing {
  readonly byNumber: OccurrenceIndex;

  constructor(
    private readonly columns: OccurrenceColumns,
    found: Found,
  ) {
    Object.assign(this, found);
    this.byNumber = columns;
  }

  get occurrences(): CallOccurrence[] {
    return this.columns.all();
  }
}

/** The index of a path without calls. */
const NO_OCCURRENCES: OccurrenceIndex = {
  count: 0,
  positionOf: noOccurrence,
  rowOf: noOccurrence,
  firstAt: () => 0,
  object: noOccurrence,
  numberOf: noOccurrence,
};

function noOccurrence(): never {
  throw new Error('not an occurrence of this pairing');
}

/** The pairing of a path that holds no call and no result. */
function unpaired(): Pairing {
  return { occurrences: [], missing: [], displaced: [], outOfOrder: [], duplicates: [], orphans: [], failedTurnResults: [], duplicateCalls: [], byNumber: NO_OCCURRENCES };
}

/**
 * A result written before its call (its output logged as it landed, ahead of the call item)
 * answers the first call of its id after it that nothing else answered: it is in the wrong place,
 * not an orphan beside an unanswered call. Returns the results that stay orphans.
 */
function claimEarlyResults(store: EntryStore, indices: ArrayLike<number>, occurrences: OccurrenceColumns, orphans: ResultSlot[]): ResultSlot[] {
  if (orphans.length === 0) return orphans;
  const waiting = new Map<number, number[]>();
  for (let n = 0; n < occurrences.count; n++) {
    if (occurrences.resultAt[n] !== -1) continue;
    const id = store.callId[occurrences.call[n]!]!;
    const queue = waiting.get(id);
    if (queue === undefined) waiting.set(id, [n]);
    else queue.push(n);
  }
  if (waiting.size === 0) return orphans;
  return orphans.filter(({ at, k }) => {
    const queue = waiting.get(store.resultCallId[store.resultStart(indices[at]!) + k]!);
    const first = queue === undefined ? -1 : queue.findIndex((n) => occurrences.at[n]! > at);
    if (first === -1) return true;
    occurrences.answer(queue![first]!, at, k);
    queue!.splice(first, 1);
    return false;
  });
}

/** A message written over several lines ends at its group's last line; its results follow that. */
function lastLineOf(items: PathItems, at: number): number {
  const group = items.at(at)!.group;
  let end = at;
  while (group !== undefined && end + 1 < items.length && items.at(end + 1)!.group === group) end += 1;
  return end;
}

/**
 * lastLineOf that remembers the last message it walked: asked for each call of a message written
 * over n lines (Claude Code writes a line per call), lastLineOf alone walks the message n times.
 */
export function lastLines(items: PathItems): (at: number) => number {
  let from = -1;
  let end = -1;
  return (at) => {
    // Every line from `from` to `end` belongs to one message, so each of them ends where it does.
    if (at < from || at > end) {
      from = at;
      end = lastLineOf(items, at);
    }
    return end;
  };
}

/** The result in a slot. */
export function resultAt(items: PathItems, slot: ResultSlot): ToolResultRef {
  return items.at(slot.at)!.toolResults![slot.k]!;
}

/** Answered calls are either in the run of results right after their assistant, or displaced. */
function classifyPlacement(store: EntryStore, indices: ArrayLike<number>, occurrences: OccurrenceColumns) {
  const missing: number[] = [];
  const displaced: number[] = [];
  const outOfOrder: number[] = [];
  let lastAt = -1;
  let lastK = -1;
  let runAssistant = -1;
  const groupAt = (at: number) => store.group(indices[at]!);
  // The message and run of results last walked: a message's calls share them, and walking them per call costs n² on a message of n calls.
  let messageFrom = -1;
  let messageEnd = -1;
  let runEnd = -1;
  for (let n = 0; n < occurrences.count; n++) {
    const slotAt = occurrences.resultAt[n]!;
    if (slotAt === -1) {
      missing.push(n);
      continue;
    }
    const slotK = occurrences.resultK[n]!;
    const at = occurrences.at[n]!;
    if (at < messageFrom || at > messageEnd) {
      messageFrom = at;
      messageEnd = at;
      const group = groupAt(messageEnd);
      while (group !== -1 && messageEnd + 1 < indices.length && groupAt(messageEnd + 1) === group) messageEnd += 1;
      runEnd = messageEnd + 1;
      while (runEnd < indices.length && store.roleCode(indices[runEnd]!) === TOOL_RESULT) runEnd += 1;
    }
    if (slotAt >= runEnd || slotAt <= messageEnd) {
      displaced.push(n);
      continue;
    }
    if (runAssistant !== messageEnd) {
      runAssistant = messageEnd;
      lastAt = -1;
    }
    if (lastAt !== -1 && (slotAt < lastAt || (slotAt === lastAt && slotK < lastK))) outOfOrder.push(n);
    else {
      lastAt = slotAt;
      lastK = slotK;
    }
  }
  return { missing, displaced, outOfOrder };
}
