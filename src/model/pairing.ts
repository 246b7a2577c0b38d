import type { PathItems } from './context.js';
import type { ToolCallRef, ToolResultRef } from './entry.js';
import { ASSISTANT, outcomeCode, OUTCOME_SHIFT, TOOL_RESULT } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';

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
  /** The call's row in the store (see EntryStore.callId). */
  row: number;
  /** Position among the message's calls that take part in pairing. */
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

/** Occurrences numbered 0..count-1 in path order; `object(n)` is the same object `occurrences` holds. */
export interface OccurrenceIndex {
  readonly count: number;
  /** Context position of occurrence n's message. */
  positionOf(n: number): number;
  /** Occurrence n's call row in the store. */
  rowOf(n: number): number;
  /** The first occurrence whose message stands at `at` or later (count when none). */
  firstAt(at: number): number;
  object(n: number): CallOccurrence;
  numberOf(occurrence: CallOccurrence): number;
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

/** Occurrences in columns; each becomes one object when first asked for, so every list shares it. */
class OccurrenceColumns implements OccurrenceIndex {
  count = 0;
  at: Int32Array;
  call: Int32Array;
  order: Int32Array;
  /** Context position of the answering result, -1 when unanswered. */
  resultAt: Int32Array;
  resultK: Int32Array;
  /** The occurrence after this one in its id's queue of open calls of one message, -1 at the end. */
  next: Int32Array;
  private readonly objects: Array<CallOccurrence | undefined> = [];
  /**
   * The calls of the message last made objects for: a context hands out a fresh view per ask, and
   * each view makes all its calls, so a message of n calls would cost n² without this.
   */
  private callsAt = -1;
  private callsThere: ToolCallRef[] = [];
  private firstCallThere = 0;

  /** `capacity`: the calls the path can hold, at most (more only grow the columns). */
  constructor(
    private readonly store: EntryStore,
    private readonly items: PathItems,
    capacity: number,
  ) {
    // Written out: Array.from with a callback cost five times the six allocations, once per pairing (a line of a dataset).
    this.at = new Int32Array(capacity);
    this.call = new Int32Array(capacity);
    this.order = new Int32Array(capacity);
    this.resultAt = new Int32Array(capacity);
    this.resultK = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
  }

  add(at: number, call: number, order: number): number {
    const n = this.count++;
    if (n === this.at.length) for (const column of ['at', 'call', 'order', 'resultAt', 'resultK', 'next'] as const) this[column] = grow(this[column]);
    this.at[n] = at;
    this.next[n] = -1;
    this.call[n] = call;
    this.order[n] = order;
    this.resultAt[n] = -1;
    return n;
  }

  answer(n: number, at: number, k: number): void {
    this.resultAt[n] = at;
    this.resultK[n] = k;
  }

  object(n: number): CallOccurrence {
    let occurrence = this.objects[n];
    if (occurrence === undefined) {
      const at = this.at[n]!;
      // The call as the item at that position hands it out, so code holding that item sees the same object.
      if (this.callsAt !== at) {
        const item = this.items.at(at)!;
        this.callsThere = item.toolCalls!;
        this.firstCallThere = this.store.callStart(item.index);
        this.callsAt = at;
      }
      const call = this.callsThere[this.call[n]! - this.firstCallThere]!;
      const result = this.resultAt[n] === -1 ? undefined : { at: this.resultAt[n]!, k: this.resultK[n]! };
      occurrence = { at, call, row: this.call[n]!, order: this.order[n]!, result };
      this.objects[n] = occurrence;
    }
    return occurrence;
  }

  positionOf(n: number): number {
    return this.at[n]!;
  }

  rowOf(n: number): number {
    return this.call[n]!;
  }

  /** Occurrences are added in path order, so positions only grow with the number. */
  firstAt(at: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.at[middle]! < at) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  numberOf(occurrence: CallOccurrence): number {
    for (let n = this.firstAt(occurrence.at); n < this.count && this.at[n] === occurrence.at; n++) if (this.objects[n] === occurrence) return n;
    throw new Error('not an occurrence of this pairing');
  }

  all(): CallOccurrence[] {
    const all: CallOccurrence[] = new Array(this.count);
    for (let n = 0; n < this.count; n++) all[n] = this.object(n);
    return all;
  }
}

/**
 * Per-id facts of one pairing, in arrays indexed by id handle: a Map per fact costs tens of bytes
 * per call on a huge path, all of it garbage right after. The arrays are kept with the store and
 * reused by every path; each pairing clears what it set (the handles it touched) when it ends.
 */
class IdSlots {
  private static readonly free = new WeakMap<EntryStore, IdSlots>();
  readonly firstCall: Int32Array;
  readonly openHead: Int32Array;
  readonly openTail: Int32Array;
  readonly answered: Int32Array;
  readonly failedAt: Int32Array;
  private touched: number[] = [];

  private constructor(private readonly store: EntryStore, size: number) {
    [this.firstCall, this.openHead, this.openTail, this.answered, this.failedAt] = Array.from({ length: 5 }, () => new Int32Array(size));
  }

  /** The store's slots when no other pairing holds them (pairings do not nest, but nothing forbids it). */
  static of(store: EntryStore): IdSlots {
    const slots = IdSlots.free.get(store);
    // With room to spare: a store reused line after line (conversations) adds ids as it goes.
    if (slots === undefined || slots.firstCall.length < store.callIds.count) return new IdSlots(store, store.callIds.count + 256);
    IdSlots.free.delete(store);
    return slots;
  }

  /** -1 when not set. */
  get(column: Int32Array, handle: number): number {
    return column[handle]! - 1;
  }

  set(column: Int32Array, handle: number, value: number): void {
    if (this.firstCall[handle] === 0 && this.openHead[handle] === 0 && this.openTail[handle] === 0 && this.answered[handle] === 0 && this.failedAt[handle] === 0) this.touched.push(handle);
    column[handle] = value + 1;
  }

  release(): void {
    for (const handle of this.touched) {
      this.firstCall[handle] = 0;
      this.openHead[handle] = 0;
      this.openTail[handle] = 0;
      this.answered[handle] = 0;
      this.failedAt[handle] = 0;
    }
    this.touched = [];
    IdSlots.free.set(this.store, this);
  }
}

function grow(column: Int32Array): Int32Array {
  const bigger = new Int32Array(Math.max(16, column.length * 2));
  bigger.set(column);
  return bigger;
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
