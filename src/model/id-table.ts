import { growTo } from './columns.js';

/**
 * Ids interned to small integers (handles). A huge file holds about one id per line and one per
 * tool call, and as JS strings each costs its header, a slot and a table entry (~60 bytes for a
 * 30-character call id). Here the characters of every id sit in one byte arena, so an id costs
 * its length plus 12 bytes, and two mentions of an id (a call and its result, an entry and its
 * children's parent links) share one handle. Ids with characters above U+00FF (never written by
 * the agents we read, but possible) are kept as strings beside the arena.
 */
export class IdTable {
  private bytes = new Uint8Array(1 << 16);
  /** The same bytes as a Buffer, for its native Latin-1 decoding. */
  private arena = Buffer.from(this.bytes.buffer);
  private used = 0;
  /** Arena offset of each handle's first byte; the next handle's start ends it. */
  private starts = new Uint32Array(1 << 12);
  /** Handle + 1 per slot, 0 for empty; at most half full so probe runs stay short. */
  private slots = new Int32Array(1 << 13);
  private wide: Map<number, string> | undefined;
  count = 0;

  /** The handle of `id`, adding it when new. */
  intern(id: string): number {
    const hash = hashOf(id);
    const slot = this.find(id, hash);
    const stored = this.slots[slot]!;
    if (stored !== 0) return stored - 1;
    const handle = this.add(id);
    if (2 * this.count > this.slots.length) this.rehash(this.slots.length * 2);
    else this.slots[slot] = handle + 1;
    return handle;
  }

  /** The handle of `id`, or -1 when it was never interned. */
  handle(id: string): number {
    return this.slots[this.find(id, hashOf(id))]! - 1;
  }

  text(handle: number): string {
    const wide = this.wide?.get(handle);
    if (wide !== undefined) return wide;
    return this.arena.toString('latin1', this.starts[handle]!, this.starts[handle + 1]!);
  }

  /** A table that crossed threads as plain data: the Buffer view of the arena arrives as a bare Uint8Array. */
  static revive(plain: IdTable): IdTable {
    const table = Object.setPrototypeOf(plain, IdTable.prototype) as IdTable;
    table.arena = Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.length);
    return table;
  }

  /** Room for `scale` times as many more ids and bytes as so far. */
  reserve(scale: number): void {
    const bytes = Math.ceil(this.used * (1 + scale));
    if (bytes > this.bytes.length) {
      this.bytes = growTo(this.bytes, bytes, true);
      this.arena = Buffer.from(this.bytes.buffer);
    }
    const ids = Math.ceil(this.count * (1 + scale)) + 1;
    if (ids > this.starts.length) this.starts = growTo(this.starts, ids, true);
    let slots = this.slots.length;
    while (slots < 2 * ids) slots *= 2;
    if (slots > this.slots.length) this.rehash(slots);
  }

  /** Drops spare capacity once a file is loaded, when there is enough to be worth a copy. */
  trim(): void {
    if (this.bytes.length > this.used * 1.2) {
      this.bytes = this.bytes.slice(0, this.used);
      this.arena = Buffer.from(this.bytes.buffer);
    }
    if (this.starts.length > (this.count + 1) * 1.2) this.starts = this.starts.slice(0, this.count + 1);
  }

  private add(id: string): number {
    const handle = this.count++;
    if (this.count + 1 > this.starts.length) this.starts = growTo(this.starts, this.count + 1);
    let latin1 = true;
    for (let i = 0; i < id.length && latin1; i++) latin1 = id.charCodeAt(i) <= 0xff;
    if (latin1) {
      if (this.used + id.length > this.bytes.length) {
        this.bytes = growTo(this.bytes, this.used + id.length);
        this.arena = Buffer.from(this.bytes.buffer);
      }
      for (let i = 0; i < id.length; i++) this.bytes[this.used + i] = id.charCodeAt(i);
      this.used += id.length;
    } else {
      (this.wide ??= new Map()).set(handle, id);
    }
    this.starts[handle + 1] = this.used;
    return handle;
  }

  /** The slot holding `id`, or the empty slot where it would go. */
  private find(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let stored = this.slots[slot]!; stored !== 0 && !this.holds(stored - 1, id); stored = this.slots[slot]!) slot = (slot + 1) & mask;
    return slot;
  }

  private holds(handle: number, id: string): boolean {
    const wide = this.wide?.get(handle);
    if (wide !== undefined) return wide === id;
    const start = this.starts[handle]!;
    if (this.starts[handle + 1]! - start !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (this.bytes[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private hashAt(handle: number): number {
    const wide = this.wide?.get(handle);
    if (wide !== undefined) return hashOf(wide);
    let h = 0x811c9dc5;
    for (let i = this.starts[handle]!; i < this.starts[handle + 1]!; i++) h = Math.imul(h ^ this.bytes[i]!, 0x01000193);
    return h >>> 0;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    const mask = this.slots.length - 1;
    for (let handle = 0; handle < this.count; handle++) {
      let slot = this.hashAt(handle) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = handle + 1;
    }
  }
}

/** FNV-1a over UTF-16 code units (for Latin-1 text, the same as over its bytes). */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
