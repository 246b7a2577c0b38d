import type { PathItems } from './context.js';
import type { ToolCallRef } from './entry.js';
import type { EntryStore } from './entry-store.js';

// The tool calls of a path as pairing (pairing.ts) finds them: each call's occurrence, what
// answers it, and the columns that hold them until someone asks for one as an object.

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

/** Occurrences in columns; each becomes one object when first asked for, so every list shares it. */
export class OccurrenceColumns implements OccurrenceIndex {
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

function grow(column: Int32Array): Int32Array {
  const bigger = new Int32Array(Math.max(16, column.length * 2));
  bigger.set(column);
  return bigger;
}
