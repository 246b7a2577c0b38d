import type { EntryStore } from './entry-store.js';

/**
 * Per-id facts of one pairing, in arrays indexed by id handle: a Map per fact costs tens of bytes
 * per call on a huge path, all of it garbage right after. The arrays are kept with the store and
 * reused by every path; each pairing clears what it set (the handles it touched) when it ends.
 */
export class IdSlots {
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
