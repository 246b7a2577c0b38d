import { growTo, StringTable } from './columns.js';
import type { Entry, EntryKind, ToolCallRef, ToolResultRef } from './entry.js';
import { ANONYMOUS, EntryColumns, PARTIAL, SYNTHETIC } from './entry-columns.js';
import { EntryView } from './entry-view.js';
import { IdTable } from './id-table.js';
import type { RareFields } from './rare-fields.js';
import { SizePartRows } from './size-part-rows.js';
import { FLAG_BITS, FLAG_SHIFT, HAS_CALLS, HAS_RESULTS, KIND_CODE, KIND_MASK, NULL_REF, outcomeCode, OUTCOME_SHIFT, roleCode, ROLE_SHIFT, POINTER_CODES, POINTER_SHIFT, SIZE_PARTS, sizeKindCode } from './entry-bits.js';

/** Spare capacity kept rather than copied away. */
const SLACK = 1.05;

/**
 * A file's entries in columns: one typed-array slot per fact per line, ids interned, the tool
 * calls and results of all entries in tables of their own. A loaded 1 GiB session keeps tens of
 * bytes per line this way instead of an object graph of hundreds, and the garbage collector has
 * next to nothing to trace. Decoders still fill an `Entry` per line; `push` packs it. Readers get
 * `Entry`-shaped views (`at`); model code that walks every entry reads the columns directly.
 */
export class EntryStore extends EntryColumns implements Iterable<Entry> {
  /** What the last pushed entries named, to spare the id table lookups for the links that repeat it. */
  private readonly recent = { id: undefined as string | undefined, idRef: -1, group: undefined as string | undefined, groupRef: -1, calls: 0, callIds: [] as string[], callRefs: [] as number[] };

  /** Adds a decoded entry (or any entry-shaped value) as the next one. */
  push(entry: Entry): void {
    const i = this.length;
    if (i === this.info.length) this.growEntries(i + 1);
    this.length = i + 1;
    let info = KIND_CODE[entry.kind] | (roleCode(entry.role) << ROLE_SHIFT) | (outcomeCode(entry.outcome) << OUTCOME_SHIFT) | ((entry.flags & FLAG_BITS) << FLAG_SHIFT);
    info |= this.pointerBits(i, entry.pointer);
    const parentId = entry.parentId;
    // Most entries hang on the line before them: its id string is still at hand, no lookup needed.
    this.parentRef[i] = parentId === undefined ? -1 : parentId === null ? NULL_REF : parentId === this.recent.id ? this.recent.idRef : this.ids.intern(parentId);
    this.idRef[i] = entry.id === undefined ? -1 : this.ids.intern(entry.id);
    this.recent.id = entry.id;
    this.recent.idRef = this.idRef[i]!;
    if (entry.group !== undefined) {
      if (entry.group !== this.recent.group) this.recent.groupRef = this.ids.intern(entry.group);
      this.recent.group = entry.group;
      (this.groupRef ??= new Int32Array(this.info.length).fill(-1))[i] = this.recent.groupRef;
    }
    else if (this.groupRef !== undefined) this.groupRef[i] = -1;
    this.setSequence(i, entry.sequence);
    this.setLine(i, entry.line);
    this.setOffset(i, entry.offset);
    this.byteLength[i] = entry.byteLength;
    this.blockCounts[i] = Math.min(entry.blockCount, 0xffff);
    if (entry.blockCount >= 0xffff) this.manyBlocks.set(i, entry.blockCount);
    this.sizeBytes[i] = Math.min(entry.sizeBytes, 0xffffffff);
    const parts = entry.sizeParts;
    this.sizeKinds[i] = sizeKindCode(entry.sizeKind) | (parts === undefined ? 0 : SIZE_PARTS);
    if (parts !== undefined) this.sizeParts.set(i, parts);
    this.setUsage(i, entry.usage ?? 0);
    if (entry.toolCalls !== undefined) {
      info |= HAS_CALLS;
      this.recent.calls = 0;
      for (const call of entry.toolCalls) this.pushCall(call, i);
    }
    if (entry.toolResults !== undefined) {
      info |= HAS_RESULTS;
      for (const result of entry.toolResults) this.pushResult(result, i);
    }
    this.info[i] = info;
    if (entry.rare !== undefined) this.pushRare(i, entry.rare as RareFields);
    if (entry.replayNote !== undefined) this.setNote(i, entry.replayNote);
  }

  /** An entry's rare fields, beside the pointer pointerBits may have put there. */
  private pushRare(i: number, held: RareFields): void {
    let rare: RareFields | undefined;
    for (const field in held) {
      // A view of another store (see EntryView.rare) also holds that store's own bookkeeping.
      if (field === 'pointer' || field === 'firstKeptRef') continue;
      // In the columns (see push).
      if (field === 'sizeParts') continue;
      const value = held[field as keyof RareFields];
      if (value !== undefined) ((rare ??= this.rare.get(i) ?? {}) as Record<string, unknown>)[field] = value;
    }
    if (rare === undefined) return;
    if (rare.firstKeptId !== undefined) rare.firstKeptRef = this.ids.intern(rare.firstKeptId);
    this.rare.set(i, rare);
  }

  /**
   * Empties the store for another small transcript, keeping its columns' room and its tables:
   * a file of a hundred thousand conversations then allocates its columns once, not per line.
   */
  clear(): void {
    this.length = 0;
    this.calls = 0;
    this.results = 0;
    this.groupRef = undefined;
    this.sequences = undefined;
    this.lines = undefined;
    this.offsetHigh = undefined;
    this.usage = undefined;
    this.notes = undefined;
    this.sizeParts.clear();
    // Clearing a map makes it a new table: most lines leave these empty.
    if (this.manyBlocks.size > 0) this.manyBlocks.clear();
    if (this.rare.size > 0) this.rare.clear();
    if (this.callExtras.size > 0) this.callExtras.clear();
    if (this.resultExtras.size > 0) this.resultExtras.clear();
    const recent = this.recent;
    recent.id = recent.group = undefined;
    recent.idRef = recent.groupRef = -1;
    // The latest message's calls are read up to `calls` only: the slots past it are overwritten, not emptied.
    recent.calls = 0;
  }

  /** A store that crossed threads as plain data (structured clone keeps its arrays and maps, not its classes). */
  static revive(plain: EntryStore): EntryStore {
    IdTable.revive(plain.ids);
    IdTable.revive(plain.callIds);
    Object.setPrototypeOf(plain.strings, StringTable.prototype);
    SizePartRows.revive(plain.sizeParts);
    return Object.setPrototypeOf(plain, EntryStore.prototype) as EntryStore;
  }

  at(index: number): Entry {
    return new EntryView(this, index) as unknown as Entry;
  }

  [Symbol.iterator](): Iterator<Entry> {
    let i = 0;
    return { next: () => (i < this.length ? { value: this.at(i++), done: false } : { value: undefined, done: true }) };
  }

  /** The entries of one kind, as views; the others are never made. */
  ofKind(kind: EntryKind): Entry[] {
    const code = KIND_CODE[kind];
    const found: Entry[] = [];
    for (let i = 0; i < this.length; i++) if ((this.info[i]! & KIND_MASK) === code) found.push(this.at(i));
    return found;
  }

  find(matches: (entry: Entry) => boolean): Entry | undefined {
    for (const entry of this) if (matches(entry)) return entry;
    return undefined;
  }

  some(matches: (entry: Entry) => boolean): boolean {
    return this.find(matches) !== undefined;
  }

  /** Every entry as a view, once: for code that keys sets and maps by entry. */
  toArray(): Entry[] {
    const views: Entry[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) views[i] = this.at(i);
    return views;
  }

  /**
   * Room for `entries` entries in all, and for calls, results and ids in the proportion the
   * entries so far have them (none before the first): columns sized once, not grown by copies
   * that each leave the previous arrays to the collector.
   */
  reserve(entries: number): void {
    if (this.info.length < entries) this.growEntries(entries, true);
    if (this.length === 0) return;
    const scale = entries / this.length;
    const want = (used: number) => Math.ceil(used * scale * 1.05);
    if (this.callId.length < want(this.calls)) this.growCalls(want(this.calls), true);
    if (this.resultCallId.length < want(this.results)) this.growResults(want(this.results), true);
    this.ids.reserve(scale * 1.05 - 1);
    this.callIds.reserve(scale * 1.05 - 1);
  }

  /** Room for as many entries, calls and results as `other` holds, tables left as they are (a store that shares them, about to copy other's entries). */
  reserveLike(other: EntryStore): void {
    if (this.info.length < other.length) this.growEntries(other.length, true);
    if (this.callId.length < other.calls) this.growCalls(other.calls, true);
    if (this.resultCallId.length < other.results) this.growResults(other.results, true);
  }

  /** Room for every entry, call, result and id of `other` on top of these: its entries are about to be copied in (see store-copy.ts). */
  reserveFor(other: EntryStore): void {
    const entries = this.length + other.length;
    if (this.info.length < entries) this.growEntries(entries, true);
    if (this.callId.length < this.calls + other.calls) this.growCalls(this.calls + other.calls, true);
    if (this.resultCallId.length < this.results + other.results) this.growResults(this.results + other.results, true);
    this.ids.reserveMore(other.ids.count, other.ids.byteSize);
    this.callIds.reserveMore(other.callIds.count, other.callIds.byteSize);
  }

  /**
   * Drops spare capacity once every line is in, table by table where there is enough to be worth
   * a copy. `between` runs after each copy: a caller with a huge file collects the old table there,
   * so no more than one table is held twice.
   */
  trim(between: () => void = () => {}): void {
    const n = this.length;
    if (this.info.length > n * SLACK) {
      this.info = this.info.slice(0, n);
      this.idRef = this.idRef.slice(0, n);
      this.parentRef = this.parentRef.slice(0, n);
      this.groupRef = this.groupRef?.slice(0, n);
      this.sequences = this.sequences?.slice(0, n);
      this.lines = this.lines?.slice(0, n);
      this.offsetLow = this.offsetLow.slice(0, n);
      this.offsetHigh = this.offsetHigh?.slice(0, n);
      this.byteLength = this.byteLength.slice(0, n);
      this.blockCounts = this.blockCounts.slice(0, n);
      this.sizeBytes = this.sizeBytes.slice(0, n);
      this.sizeKinds = this.sizeKinds.slice(0, n);
      this.usage = this.usage?.slice(0, n);
      between();
    }
    if (this.callId.length > this.calls * SLACK + 16) {
      this.callOwner = this.callOwner.slice(0, this.calls);
      this.callId = this.callId.slice(0, this.calls);
      this.callName = this.callName.slice(0, this.calls);
      this.callPointer = this.callPointer.slice(0, this.calls);
      this.callBlock = this.callBlock.slice(0, this.calls);
      this.callFlags = this.callFlags.slice(0, this.calls);
    }
    if (this.resultCallId.length > this.results * SLACK + 16) {
      this.resultOwner = this.resultOwner.slice(0, this.results);
      this.resultCallId = this.resultCallId.slice(0, this.results);
      this.resultPointer = this.resultPointer.slice(0, this.results);
      this.resultName = this.resultName.slice(0, this.results);
      this.resultNamePointer = this.resultNamePointer.slice(0, this.results);
      this.resultFlags = this.resultFlags.slice(0, this.results);
    }
    this.sizeParts.trim();
    this.ids.trim();
    this.callIds.trim();
    between();
  }

  private pointerBits(i: number, pointer: string): number {
    const code = this.strings.code(pointer);
    if (code < POINTER_CODES - 1) return code << POINTER_SHIFT;
    this.setRare(i, 'pointer', pointer);
    return (POINTER_CODES - 1) << POINTER_SHIFT;
  }

  private pushCall(call: ToolCallRef, owner: number): void {
    const k = this.calls++;
    if (k === this.callId.length) this.growCalls(k + 1);
    this.callOwner[k] = owner;
    this.callId[k] = call.id === undefined ? -1 : this.callIds.intern(call.id);
    if (call.id !== undefined) {
      const recent = this.recent;
      recent.callIds[recent.calls] = call.id;
      recent.callRefs[recent.calls++] = this.callId[k]!;
    }
    this.callName[k] = call.name === undefined ? 0 : this.strings.code(call.name) + 1;
    this.callPointer[k] = this.strings.code(call.pointer);
    this.callBlock[k] = call.blockIndex;
    this.callFlags[k] = (call.partial ? PARTIAL : 0) | (call.anonymous ? ANONYMOUS : 0);
    if (call.missing !== undefined || call.changes !== undefined || call.conflict !== undefined) {
      this.callExtras.set(k, withoutUndefined({ missing: call.missing, changes: call.changes, conflict: call.conflict }));
    }
  }

  /** The handle of a call id, found among the latest message's calls when it is one of them. */
  private recentCall(id: string): number {
    const recent = this.recent;
    for (let n = 0; n < recent.calls; n++) if (recent.callIds[n] === id) return recent.callRefs[n]!;
    return this.callIds.intern(id);
  }

  private pushResult(result: ToolResultRef, owner: number): void {
    const k = this.results++;
    if (k === this.resultCallId.length) this.growResults(k + 1);
    this.resultOwner[k] = owner;
    // A result names a call of the latest assistant message, almost always.
    this.resultCallId[k] = result.callId === undefined ? -1 : this.recentCall(result.callId);
    this.resultPointer[k] = this.strings.code(result.pointer);
    this.resultName[k] = result.name === undefined ? 0 : this.strings.code(result.name) + 1;
    this.resultNamePointer[k] = result.namePointer === undefined ? 0 : this.strings.code(result.namePointer) + 1;
    this.resultFlags[k] = (result.synthetic ? SYNTHETIC : 0) | (result.anonymous ? ANONYMOUS : 0);
    if (result.changes !== undefined || result.conflict !== undefined) {
      this.resultExtras.set(k, withoutUndefined({ changes: result.changes, conflict: result.conflict }));
    }
  }

  growEntries(needed: number, exact = false): void {
    this.info = growTo(this.info, needed, exact);
    const size = this.info.length;
    this.idRef = growTo(this.idRef, size);
    this.parentRef = growTo(this.parentRef, size);
    if (this.groupRef !== undefined) this.groupRef = growTo(this.groupRef, size);
    if (this.sequences !== undefined) this.sequences = growTo(this.sequences, size);
    if (this.lines !== undefined) this.lines = growTo(this.lines, size);
    this.offsetLow = growTo(this.offsetLow, size);
    if (this.offsetHigh !== undefined) this.offsetHigh = growTo(this.offsetHigh, size);
    this.byteLength = growTo(this.byteLength, size);
    this.blockCounts = growTo(this.blockCounts, size);
    this.sizeBytes = growTo(this.sizeBytes, size);
    this.sizeKinds = growTo(this.sizeKinds, size);
    if (this.usage !== undefined) this.usage = growTo(this.usage, size);
  }

  growCalls(needed: number, exact = false): void {
    this.callId = growTo(this.callId, needed, exact);
    const size = this.callId.length;
    this.callOwner = growTo(this.callOwner, size);
    this.callName = growTo(this.callName, size);
    this.callPointer = growTo(this.callPointer, size);
    this.callBlock = growTo(this.callBlock, size);
    this.callFlags = growTo(this.callFlags, size);
  }

  growResults(needed: number, exact = false): void {
    this.resultCallId = growTo(this.resultCallId, needed, exact);
    const size = this.resultCallId.length;
    this.resultOwner = growTo(this.resultOwner, size);
    this.resultPointer = growTo(this.resultPointer, size);
    this.resultName = growTo(this.resultName, size);
    this.resultNamePointer = growTo(this.resultNamePointer, size);
    this.resultFlags = growTo(this.resultFlags, size);
  }
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}
