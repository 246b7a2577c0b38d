import { growTo } from './columns.js';
import { decodeId, encodeId, MAX_ENCODED } from './id-encoding.js';

/**
 * Ids interned to small integers (handles). A huge file holds about one id per line and one per
 * tool call, and as JS strings each costs its header, a slot and a table entry (~60 bytes for a
 * 30-character call id). Here every id is stored once, encoded (id-encoding.ts: a UUID in 17
 * bytes, hex in half its length, anything else in Latin-1), in one byte arena, and two mentions
 * of an id (a call and its result, an entry and its children's parent links) share one handle.
 * Ids that do not encode (characters above U+00FF, very long ones) are kept as strings beside
 * the arena. The hash index is needed only while ids are added: `trim` drops it, and a later
 * lookup builds it again.
 */
export class IdTable {
  private bytes: Uint8Array = new Uint8Array(1 << 10);
  /** The same bytes as a Buffer, for its native Latin-1 decoding; follows `bytes` (see setBytes). */
  private arena: Buffer = Buffer.from(this.bytes.buffer);
  private used = 0;
  /** Arena offset of each handle's first byte; the next handle's start ends it. */
  private starts = new Uint32Array(1 << 6);
  /** Handle + 1 per slot, 0 for empty; at most half full so probe runs stay short. Empty once trimmed. */
  private slots = new Int32Array(1 << 7);
  private wide: Map<number, string> | undefined;
  /**
   * Handle + 1 of each positional id `#n` (see positionalId), by n: files named by position have
   * one per line, dense, so they are found by number instead of hashed and probed. Every spelling
   * of such an id goes this way, so two mentions still share one handle.
   */
  private positional = new Int32Array(0);
  /** Where a lookup encodes the id it looks for. */
  private readonly scratch = new Uint8Array(MAX_ENCODED);
  count = 0;

  /** The handle of `id`, adding it when new. */
  intern(id: string): number {
    // A positional id is found by its number, read from the string: nothing to encode.
    const n = id.charCodeAt(0) === 0x23 ? positionalNumberOf(id) : -1;
    return n >= 0 ? this.internNumbered(n) : this.internEncoded(id, encodeId(id, this.scratch));
  }

  /** The handle here of handle `handle` of `other`, found by its stored bytes: joining tables spells no id out. */
  internFrom(other: IdTable, handle: number): number {
    const wide = other.wide?.get(handle);
    if (wide !== undefined) return this.intern(wide);
    const start = other.starts[handle]!;
    const length = other.starts[handle + 1]! - start;
    for (let i = 0; i < length; i++) this.scratch[i] = other.bytes[start + i]!;
    return this.internEncoded('', length);
  }

  /** `id` encoded in scratch as `length` bytes (-1: kept as the string). */
  private internEncoded(id: string, length: number): number {
    const n = positionalNumber(this.scratch, 0, length);
    if (n >= 0) return this.internPositional(n, length);
    const slot = this.find(id, length);
    const stored = this.slots[slot]!;
    if (stored !== 0) return stored - 1;
    const handle = this.add(id, length);
    if (2 * this.count > this.slots.length) this.rehash(this.slots.length * 2);
    else this.slots[slot] = handle + 1;
    return handle;
  }

  /** `#n`, whose bytes are in scratch (`length` of them) when it is new. */
  private internPositional(n: number, length: number): number {
    const known = n < this.positional.length ? this.positional[n]! : 0;
    if (known !== 0) return known - 1;
    const handle = this.add('', length);
    if (n >= this.positional.length) this.positional = growTo(this.positional, n + 1);
    this.positional[n] = handle + 1;
    return handle;
  }

  /** `#n`, spelled into scratch only when it is new. */
  private internNumbered(n: number): number {
    if (n < this.positional.length && this.positional[n] !== 0) return this.positional[n]! - 1;
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    this.scratch[0] = 0x23;
    for (let i = digits, rest = n; i >= 1; i--, rest = Math.floor(rest / 10)) this.scratch[i] = 0x30 + (rest % 10);
    return this.internPositional(n, digits + 1);
  }

  /** The handle of the positional id `#n` (see positionalId), adding it when new; no string is made. */
  internPosition(n: number): number {
    return n <= MAX_POSITIONAL && Number.isInteger(n) && n >= 0 ? this.internNumbered(n) : this.intern(`#${n}`);
  }

  /** n when handle names the positional id `#n`, else -1. */
  position(handle: number): number {
    return this.wide?.has(handle) === true ? -1 : positionalNumber(this.bytes, this.starts[handle]!, this.starts[handle + 1]!);
  }

  /** The handle of `id`, or -1 when it was never interned. */
  handle(id: string): number {
    const length = encodeId(id, this.scratch);
    const n = positionalNumber(this.scratch, 0, length);
    if (n >= 0) return n < this.positional.length ? this.positional[n]! - 1 : -1;
    const slot = this.find(id, length); // it may build the index anew
    return this.slots[slot]! - 1;
  }

  /** Bytes the arena holds. */
  get byteSize(): number {
    return this.used;
  }

  text(handle: number): string {
    return this.wide?.get(handle) ?? decodeId(this.arena, this.starts[handle]!, this.starts[handle + 1]!);
  }

  /** A table that crossed threads as plain data. */
  static revive(plain: IdTable): IdTable {
    const table = Object.setPrototypeOf(plain, IdTable.prototype) as IdTable;
    // A Buffer crosses as a bare Uint8Array.
    table.setBytes(table.bytes);
    return table;
  }

  /** Room for `scale` times as many more ids and bytes as so far. */
  reserve(scale: number): void {
    this.reserveMore(this.count * scale, this.used * scale);
  }

  /** Room for `more` ids of `moreBytes` bytes in all (another table's, when joining it). */
  reserveMore(more: number, moreBytes: number): void {
    const bytes = Math.ceil(this.used + moreBytes);
    if (bytes > this.bytes.length) this.setBytes(growTo(this.bytes, bytes, true));
    const ids = Math.ceil(this.count + more) + 1;
    if (ids > this.starts.length) this.starts = growTo(this.starts, ids, true);
    const slots = indexSize(ids);
    if (slots > this.slots.length) this.rehash(slots);
  }

  /** Forgets every id, keeping the room they took. */
  clear(): void {
    this.used = 0;
    this.count = 0;
    this.wide = undefined;
    if (this.slots.length > 0) this.slots.fill(0);
    this.positional.fill(0);
  }

  /** Drops the hash index, and spare capacity when there is enough to be worth a copy: the file is loaded. */
  trim(): void {
    if (this.bytes.length > this.used * 1.05) this.setBytes(this.bytes.slice(0, this.used));
    if (this.starts.length > (this.count + 1) * 1.05) this.starts = this.starts.slice(0, this.count + 1);
    this.slots = new Int32Array(0);
  }

  private setBytes(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.arena = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  private add(id: string, length: number): number {
    const handle = this.count++;
    if (this.count + 1 > this.starts.length) this.starts = growTo(this.starts, this.count + 1);
    if (length >= 0) {
      if (this.used + length > this.bytes.length) this.setBytes(growTo(this.bytes, this.used + length));
      for (let i = 0; i < length; i++) this.bytes[this.used + i] = this.scratch[i]!;
      this.used += length;
    } else {
      (this.wide ??= new Map()).set(handle, id);
    }
    this.starts[handle + 1] = this.used;
    return handle;
  }

  /** The slot holding `id` (encoded in scratch, `length` bytes; -1 for an id kept as a string), or the empty slot where it would go. */
  private find(id: string, length: number): number {
    if (this.slots.length === 0) this.rehash(indexSize(this.count));
    const mask = this.slots.length - 1;
    let slot = (length >= 0 ? hashBytes(this.scratch, 0, length) : hashText(id)) & mask;
    for (let stored = this.slots[slot]!; stored !== 0 && !this.holds(stored - 1, id, length); stored = this.slots[slot]!) slot = (slot + 1) & mask;
    return slot;
  }

  private holds(handle: number, id: string, length: number): boolean {
    const wide = this.wide?.get(handle);
    if (wide !== undefined || length < 0) return wide === id;
    const start = this.starts[handle]!;
    if (this.starts[handle + 1]! - start !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== this.scratch[i]) return false;
    return true;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    const mask = size - 1;
    for (let handle = 0; handle < this.count; handle++) {
      const wide = this.wide?.get(handle);
      if (wide === undefined && positionalNumber(this.bytes, this.starts[handle]!, this.starts[handle + 1]!) >= 0) continue; // found by number
      let slot = (wide !== undefined ? hashText(wide) : hashBytes(this.bytes, this.starts[handle]!, this.starts[handle + 1]!)) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = handle + 1;
    }
  }
}

function indexSize(count: number): number {
  let size = 16;
  while (size < 2 * count) size *= 2;
  return size;
}

/** Longest `#n` found by number: larger ones are hashed like any id (always, so one spelling, one way). */
const MAX_POSITIONAL_DIGITS = 9;
const MAX_POSITIONAL = 10 ** MAX_POSITIONAL_DIGITS - 1;

/** positionalNumber of a string. */
function positionalNumberOf(id: string): number {
  const digits = id.length - 1;
  if (digits < 1 || digits > MAX_POSITIONAL_DIGITS || id.charCodeAt(0) !== 0x23 || (id.charCodeAt(1) === 0x30 && digits > 1)) return -1;
  let n = 0;
  for (let i = 1; i <= digits; i++) {
    const digit = id.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** n for the bytes of a positional id `#n` (no leading zero), else -1. */
function positionalNumber(bytes: Uint8Array, start: number, end: number): number {
  const digits = end - start - 1;
  if (digits < 1 || digits > MAX_POSITIONAL_DIGITS || bytes[start] !== 0x23 || (bytes[start + 1] === 0x30 && digits > 1)) return -1;
  let n = 0;
  for (let i = start + 1; i < end; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** FNV-1a. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
