import type { Entry } from './entry.js';

/**
 * Entry index by id. A file can hold hundreds of thousands of ids: this keeps only entry
 * positions, in one open-addressing table, and reads the ids back from the entries. A Map of
 * the same ids holds several times the memory, and reallocates its backing store as it grows.
 */
export class IdIndex {
  /** Entry index + 1 per slot; 0 marks an empty slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `entries` are the ones indexed; at most that many ids can be added. */
  constructor(private readonly entries: readonly Entry[]) {
    let size = 16;
    while (size < entries.length * 2) size *= 2; // at most half full: probe runs stay short
    this.slots = new Int32Array(size);
    this.mask = size - 1;
  }

  get(id: string): number | undefined {
    const at = this.find(id);
    return this.slots[at] === 0 ? undefined : this.slots[at]! - 1;
  }

  has(id: string): boolean {
    return this.slots[this.find(id)] !== 0;
  }

  /**
   * Adds `entries[index]` under its id and returns the entry that had the id before, if any;
   * with `keepEarlier` that one keeps it.
   */
  add(index: number, keepEarlier: boolean): number | undefined {
    const at = this.find(this.entries[index]!.id!);
    const earlier = this.slots[at]! - 1;
    if (earlier === -1 || !keepEarlier) this.slots[at] = index + 1;
    return earlier === -1 ? undefined : earlier;
  }

  /** The slot holding `id`, or the empty slot where it would go. */
  private find(id: string): number {
    let slot = hash(id) & this.mask;
    for (let stored = this.slots[slot]!; stored !== 0 && this.entries[stored - 1]!.id !== id; stored = this.slots[slot]!) {
      slot = (slot + 1) & this.mask;
    }
    return slot;
  }
}

/** FNV-1a over UTF-16 code units. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
