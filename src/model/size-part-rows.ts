import { firstOwned, growTo } from './columns.js';
import { SIZE_KINDS, sizeKindCode } from './entry-bits.js';
import type { SizeKind, SizeParts } from './size/request-size.js';

/**
 * The bytes by kind of the entries that send more than one kind (Entry.sizeParts), as rows in entry
 * order, an entry's found by binary search the way its calls are; the rest of an entry's size facts
 * are EntryColumns.sizeBytes and sizeKinds, whose SIZE_PARTS bit says it has rows. A fifth of a real
 * session's entries have several kinds: an object each in the rare fields kept 105.5 bytes an entry
 * where 66.3 had been (a 128 MiB real-shaped pi file).
 */
export class SizePartRows {
  count = 0;
  owner = new Uint32Array(0);
  /** The row's SizeKind code (see SIZE_KINDS). */
  kind = new Uint8Array(0);
  /** Its bytes, saturated at 2³² - 1 as Entry.sizeBytes is. */
  bytes = new Uint32Array(0);

  /** Entry i's rows are rows start(i) … until one is owned by another entry. */
  start(i: number): number {
    return firstOwned(this.owner, this.count, i);
  }

  /** Entry i's bytes by kind, in the order they were noted; undefined when it has no rows. */
  partsOf(i: number): SizeParts | undefined {
    let parts: SizeParts | undefined;
    for (let k = this.start(i); k < this.count && this.owner[k] === i; k++) (parts ??= {})[SIZE_KINDS[this.kind[k]! - 1]!] = this.bytes[k]!;
    return parts;
  }

  /** Entry i's parts, in place of any it had: at the end for the next entry, shifted in for an earlier one (a late settling). */
  set(i: number, parts: SizeParts): void {
    let n = 0;
    for (const _ in parts) n += 1;
    const last = this.count === 0 || this.owner[this.count - 1]! < i;
    if (!last) this.remove(i);
    const at = last ? this.count : this.start(i);
    this.makeRoom(this.count + n);
    if (at < this.count) {
      this.owner.copyWithin(at + n, at, this.count);
      this.kind.copyWithin(at + n, at, this.count);
      this.bytes.copyWithin(at + n, at, this.count);
    }
    let k = at;
    for (const kind in parts) {
      this.owner[k] = i;
      this.kind[k] = sizeKindCode(kind as SizeKind);
      this.bytes[k] = Math.min(parts[kind as SizeKind]!, 0xffffffff);
      k += 1;
    }
    this.count += n;
  }

  /** Drops entry i's rows. */
  remove(i: number): void {
    const from = this.start(i);
    let to = from;
    while (to < this.count && this.owner[to] === i) to += 1;
    if (to === from) return;
    this.owner.copyWithin(from, to, this.count);
    this.kind.copyWithin(from, to, this.count);
    this.bytes.copyWithin(from, to, this.count);
    this.count -= to - from;
  }

  /** The rows of `source`'s entries `from` … `to` - 1 as the last ones here, each owner `shift` further on. */
  copyFrom(source: SizePartRows, from: number, to: number, shift: number): void {
    const first = source.start(from);
    const end = source.start(to);
    const n = end - first;
    if (n === 0) return;
    this.makeRoom(this.count + n);
    for (let k = 0; k < n; k++) this.owner[this.count + k] = source.owner[first + k]! + shift;
    this.kind.set(source.kind.subarray(first, end), this.count);
    this.bytes.set(source.bytes.subarray(first, end), this.count);
    this.count += n;
  }

  clear(): void {
    this.count = 0;
  }

  /** Drops spare room, once every line is in. */
  trim(): void {
    if (this.owner.length <= this.count * 1.05 + 16) return;
    this.owner = this.owner.slice(0, this.count);
    this.kind = this.kind.slice(0, this.count);
    this.bytes = this.bytes.slice(0, this.count);
  }

  /** Rows that crossed threads as plain data (see EntryStore.revive). */
  static revive(plain: SizePartRows): SizePartRows {
    return Object.setPrototypeOf(plain, SizePartRows.prototype) as SizePartRows;
  }

  private makeRoom(needed: number): void {
    if (this.owner.length >= needed) return;
    this.owner = growTo(this.owner, needed);
    this.kind = growTo(this.kind, this.owner.length, true);
    this.bytes = growTo(this.bytes, this.owner.length, true);
  }
}
