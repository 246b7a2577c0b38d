import type { EntryStore } from './entry-store.js';

/**
 * Entry index by id, over a store's interned ids: one integer per distinct id, no strings.
 * With duplicate ids the format decides which entry the agent keeps (see Tree.byId).
 */
export class IdIndex {
  /** Entry index + 1 per id handle; 0 when no entry has that id. */
  private readonly byHandle: Int32Array;

  constructor(private readonly store: EntryStore) {
    // As far as the store's own entries reach: a table shared by the lines of a dataset holds
    // others' ids too, and an array past 64 bytes is made outside the heap, at a cost per line.
    let last = -1;
    for (let i = 0; i < store.length; i++) if (store.idRef[i]! > last) last = store.idRef[i]!;
    this.byHandle = new Int32Array(last + 1);
  }

  get(id: string): number | undefined {
    return this.ofHandle(this.store.ids.handle(id));
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The entry that entry `index`'s id resolves to (itself, or another that shares the id); undefined without an id. */
  ofEntry(index: number): number | undefined {
    return this.ofHandle(this.store.idRef[index]!);
  }

  ofHandle(handle: number): number | undefined {
    if (handle < 0 || handle >= this.byHandle.length || this.byHandle[handle] === 0) return undefined;
    return this.byHandle[handle]! - 1;
  }

  /**
   * Adds entry `index` under its id and returns the entry that had the id before, if any; with
   * `keepEarlier` that one keeps it.
   */
  add(index: number, keepEarlier: boolean): number | undefined {
    const handle = this.store.idRef[index]!;
    const earlier = this.byHandle[handle]! - 1;
    if (earlier === -1 || !keepEarlier) this.byHandle[handle] = index + 1;
    return earlier === -1 ? undefined : earlier;
  }
}
