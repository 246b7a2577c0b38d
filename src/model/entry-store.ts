import { growTo, StringTable } from './columns.js';
import { type DocumentRef, type Entry, type EntryKind, type HeaderInfo, type ImageRef, type KeptHistoryProblem, type Outcome, type SchemaBreak, type Role, type ServerToolRef, type ToolCallRef, type ToolResultRef } from './entry.js';
import { EntryView } from './entry-view.js';
import { IdTable } from './id-table.js';
import { StoredCall, StoredResult } from './stored-parts.js';
import { SHARED, type Translation } from './store-translation.js';
import { toolNameProblem } from './tool-name.js';
import type { SizeKind, SizeParts } from './size/request-size.js';
import { FLAG_BITS, FLAG_SHIFT, flagMask, HAS_CALLS, HAS_RESULTS, KIND_CODE, KIND_MASK, KINDS, NULL_REF, outcomeCode, OUTCOME_SHIFT, roleCode, ROLE_SHIFT, POINTER_CODES, POINTER_SHIFT, sizeKindCode } from './entry-bits.js';

const LINKS_TO_PREVIOUS = flagMask('linksToPrevious');

/** What few entries have: a map beside the columns instead of a column each. */
export interface RareFields {
  logicalParentId?: string;
  serverTools?: ServerToolRef[];
  header?: HeaderInfo;
  firstKeptId?: string;
  blankTextBlocks?: string[];
  whitespaceTextBlocks?: string[];
  rollsBackTurns?: number;
  wipesHistory?: string;
  placeholderTurns?: string[];
  emptyTurns?: string[];
  trailingResults?: true;
  keptHistoryProblems?: KeptHistoryProblem[];
  provider?: string;
  trailingWhitespace?: true;
  images?: ImageRef[];
  lostType?: string;
  unreadableParts?: Array<{ pointer: string; type: string; readAs?: string }>;
  schemaBreaks?: SchemaBreak[];
  agent?: string;
  sizeParts?: SizeParts;
  model?: string;
  documents?: DocumentRef[];
  longString?: { pointer: string; length: number };
  /** An entry pointer beyond the codes the info word holds. */
  pointer?: string;
  /** firstKeptId's handle, taken while loading: the id index is gone once a store is trimmed. */
  firstKeptRef?: number;
}

type CallExtras = Pick<ToolCallRef, 'missing' | 'changes' | 'conflict'>;
type ResultExtras = Pick<ToolResultRef, 'changes' | 'conflict'>;

/** Spare capacity kept rather than copied away. */
const SLACK = 1.05;

/** Call and result flag bits. */
export const PARTIAL = 1;
const SYNTHETIC = 1;
const ANONYMOUS = 2;

/** Tool-name facts (see nameFacts). */
const NAME_JUDGED = 1;
const NAME_REJECTED = 2;
const NAME_PADDED = 4;
const NAME_BLANK = 8;

/**
 * A file's entries in columns: one typed-array slot per fact per line, ids interned, the tool
 * calls and results of all entries in tables of their own. A loaded 1 GiB session keeps tens of
 * bytes per line this way instead of an object graph of hundreds, and the garbage collector has
 * next to nothing to trace. Decoders still fill an `Entry` per line; `push` packs it. Readers get
 * `Entry`-shaped views (`at`); model code that walks every entry reads the columns directly.
 */
export class EntryStore implements Iterable<Entry> {
  length = 0;
  /** Entry and group ids. */
  readonly ids: IdTable;
  /** Tool-call ids, apart: pairing keeps per-id facts in arrays of this table's size. */
  readonly callIds: IdTable;
  readonly strings: StringTable;
  info = new Uint32Array(0);
  /** Id handle, -1 when the entry has none. */
  idRef = new Int32Array(0);
  /** Id handle of the parent, -1 when absent, NULL_REF for a root. */
  parentRef = new Int32Array(0);
  /** Id handle of the message group, -1 when none; allocated with the first group. */
  groupRef: Int32Array | undefined;
  /** Each line's number in a numbered file (Codex's paginated rollouts), NaN for a line without; made at the first numbered line. */
  private sequences: Float64Array | undefined;
  /** Line numbers, made when the first entry is not on line index + 1 (a blank or broken line before it). */
  lines: Uint32Array | undefined;
  /** Byte offset, low 32 bits; the bits above sit in `offsetHigh`, made for the first line past 4 GiB. */
  offsetLow = new Uint32Array(0);
  offsetHigh: Uint16Array | undefined;
  byteLength = new Uint32Array(0);
  /** Content blocks, saturated at 0xffff: larger counts sit in `manyBlocks`. */
  blockCounts = new Uint16Array(0);
  readonly manyBlocks = new Map<number, number>();
  /** Entry.sizeBytes, saturated at 2³² - 1. */
  sizeBytes = new Uint32Array(0);
  /** Entry.sizeKind's code (see SIZE_KINDS in entry-bits.ts), 0 for none. */
  sizeKinds = new Uint8Array(0);
  /** Entry.usage, 0 for none; made at the first entry that records one. */
  usage: Uint32Array | undefined;
  readonly rare = new Map<number, RareFields>();
  /**
   * Each entry's Entry.replayNote, made at the first: a format that notes them notes most lines, and
   * a slot a line costs far less than a map entry and an object (a fifth of a Gemini CLI scan).
   */
  notes: unknown[] | undefined;
  /** What the last pushed entries named, to spare the id table lookups for the links that repeat it. */
  private readonly recent = { id: undefined as string | undefined, idRef: -1, group: undefined as string | undefined, groupRef: -1, calls: 0, callIds: [] as string[], callRefs: [] as number[] };

  calls = 0;
  /** The entry each call belongs to, in entry order: an entry's calls are found by binary search. */
  callOwner = new Uint32Array(0);
  callId = new Int32Array(0);
  callName = new Int32Array(0);
  callPointer = new Uint32Array(0);
  callBlock = new Uint32Array(0);
  callFlags = new Uint8Array(0);
  readonly callExtras = new Map<number, CallExtras>();
  /** Per tool-name string code: 0 not judged yet, else NAME_* bits (see nameFacts). */
  private nameVerdicts = new Uint8Array(0);

  results = 0;
  resultOwner = new Uint32Array(0);
  resultCallId = new Int32Array(0);
  resultPointer = new Uint32Array(0);
  /** String code + 1 of the tool name on the result; 0 when absent. */
  resultName = new Uint32Array(0);
  resultNamePointer = new Uint32Array(0);
  resultFlags = new Uint8Array(0);
  readonly resultExtras = new Map<number, ResultExtras>();

  /**
   * With `tables`, the new store shares another's id and string tables (they only ever grow), so
   * entries can be copied from it as numbers (see pushCopy).
   */
  constructor(tables?: Pick<EntryStore, 'ids' | 'callIds' | 'strings'>) {
    this.ids = tables?.ids ?? new IdTable();
    this.callIds = tables?.callIds ?? new IdTable();
    this.strings = tables?.strings ?? new StringTable();
  }

  /**
   * For entry i of `source` copied to position `at` here: the handle of its new id when it is named
   * by its own position (a file replayed in order, see Entry.linksToPrevious), which moves with it;
   * undefined when it keeps its id.
   */
  movedPosition(source: EntryStore, i: number, at: number): number | undefined {
    if ((source.info[i]! & LINKS_TO_PREVIOUS) === 0 || at === i) return undefined;
    const ref = source.idRef[i]!;
    return ref !== -1 && source.ids.position(ref) === i ? this.ids.internPosition(at) : undefined;
  }

  /**
   * Every entry of `source` after these, in order, `lines` lines further down (a part of a file
   * another thread read): what pushCopy of each would give, made a column at a time. Their calls
   * and results follow these in the same order, so none is looked up (four binary searches an
   * entry, a third of a join, when copied one entry at a time); 33 ms became 20 ms for a
   * Gemini CLI session's second half.
   */
  append(source: EntryStore, lines: number, to: Translation): void {
    const base = this.length;
    const n = source.length;
    if (this.info.length < base + n) this.growEntries(base + n);
    this.length = base + n;
    for (let i = 0; i < n; i++) {
      const info = source.info[i]!;
      const pointer = info >>> POINTER_SHIFT;
      this.info[base + i] = pointer === POINTER_CODES - 1 ? info : ((info & ((1 << POINTER_SHIFT) - 1)) | (to.string(pointer) << POINTER_SHIFT)) >>> 0;
      // A positional id names the entry's place, which moves by `base`.
      this.idRef[base + i] = this.movedPosition(source, i, base + i) ?? to.id(source.idRef[i]!);
      this.parentRef[base + i] = to.id(source.parentRef[i]!);
    }
    if (source.groupRef !== undefined) for (let i = 0; i < n; i++) this.setGroup(base + i, to.id(source.groupRef[i]!));
    else if (this.groupRef !== undefined) this.groupRef.fill(-1, base, base + n);
    if (source.sequences !== undefined || this.sequences !== undefined) for (let i = 0; i < n; i++) this.setSequence(base + i, source.sequence(i));
    // Numbered as their place unless a line was skipped, here or there.
    if (source.lines !== undefined || this.lines !== undefined || lines !== base) for (let i = 0; i < n; i++) this.setLine(base + i, source.line(i) + lines);
    if (source.offsetHigh === undefined && this.offsetHigh === undefined) this.offsetLow.set(source.offsetLow.subarray(0, n), base);
    else for (let i = 0; i < n; i++) this.setOffset(base + i, source.offset(i));
    this.byteLength.set(source.byteLength.subarray(0, n), base);
    this.blockCounts.set(source.blockCounts.subarray(0, n), base);
    this.sizeBytes.set(source.sizeBytes.subarray(0, n), base);
    this.sizeKinds.set(source.sizeKinds.subarray(0, n), base);
    if (source.usage !== undefined || this.usage !== undefined) for (let i = 0; i < n; i++) this.setUsage(base + i, source.usage?.[i] ?? 0);
    for (const i of inOrder(source.manyBlocks)) this.manyBlocks.set(base + i, source.manyBlocks.get(i)!);
    // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
    const calls = this.calls;
    if (this.callId.length < calls + source.calls) this.growCalls(calls + source.calls);
    for (let k = 0; k < source.calls; k++) {
      this.callOwner[calls + k] = source.callOwner[k]! + base;
      this.callId[calls + k] = to.callId(source.callId[k]!);
      this.callName[calls + k] = to.string(source.callName[k]! - 1) + 1;
      this.callPointer[calls + k] = to.string(source.callPointer[k]!);
    }
    this.callBlock.set(source.callBlock.subarray(0, source.calls), calls);
    this.callFlags.set(source.callFlags.subarray(0, source.calls), calls);
    for (const k of inOrder(source.callExtras)) this.callExtras.set(calls + k, source.callExtras.get(k)!);
    this.calls += source.calls;
    const results = this.results;
    if (this.resultCallId.length < results + source.results) this.growResults(results + source.results);
    for (let k = 0; k < source.results; k++) {
      this.resultOwner[results + k] = source.resultOwner[k]! + base;
      this.resultCallId[results + k] = to.callId(source.resultCallId[k]!);
      this.resultPointer[results + k] = to.string(source.resultPointer[k]!);
      this.resultName[results + k] = to.string(source.resultName[k]! - 1) + 1;
      this.resultNamePointer[results + k] = to.string(source.resultNamePointer[k]! - 1) + 1;
    }
    this.resultFlags.set(source.resultFlags.subarray(0, source.results), results);
    for (const k of inOrder(source.resultExtras)) this.resultExtras.set(results + k, source.resultExtras.get(k)!);
    this.results += source.results;
    for (const i of inOrder(source.rare)) {
      const rare = source.rare.get(i)!;
      this.rare.set(base + i, rare.firstKeptRef === undefined ? { ...rare } : { ...rare, firstKeptRef: to.id(rare.firstKeptRef) });
    }
    const notes = source.notes;
    if (notes !== undefined) for (let i = 0; i < notes.length; i++) if (notes[i] !== undefined) this.setNote(base + i, notes[i]);
  }

  /**
   * Entry i of `source` as the next entry, written at another line and offset (and under another
   * id, `idRef`, for positional ids that follow the entry's position). Its facts are copied as numbers,
   * through `to` when the source has tables of its own (another thread's half of a file).
   */
  pushCopy(source: EntryStore, i: number, place: { line: number; offset: number; byteLength: number; idRef?: number }, to: Translation = SHARED): void {
    const at = this.length;
    if (at === this.info.length) this.growEntries(at + 1);
    this.length = at + 1;
    const info = source.info[i]!;
    const pointer = info >>> POINTER_SHIFT;
    this.info[at] = pointer === POINTER_CODES - 1 ? info : ((info & ((1 << POINTER_SHIFT) - 1)) | (to.string(pointer) << POINTER_SHIFT)) >>> 0;
    this.idRef[at] = place.idRef ?? to.id(source.idRef[i]!);
    this.parentRef[at] = to.id(source.parentRef[i]!);
    this.setGroup(at, to.id(source.group(i)));
    this.setSequence(at, source.sequence(i));
    this.setLine(at, place.line);
    this.setOffset(at, place.offset);
    this.byteLength[at] = place.byteLength;
    this.blockCounts[at] = source.blockCounts[i]!;
    this.sizeBytes[at] = source.sizeBytes[i]!;
    this.sizeKinds[at] = source.sizeKinds[i]!;
    this.setUsage(at, source.usage?.[i] ?? 0);
    if (source.blockCounts[i] === 0xffff) this.manyBlocks.set(at, source.manyBlocks.get(i)!);
    // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
    let k = source.callStart(i);
    for (; k < source.calls && source.callOwner[k] === i; k++) {
      const copy = this.calls++;
      if (copy === this.callId.length) this.growCalls(copy + 1);
      this.callOwner[copy] = at;
      this.callId[copy] = to.callId(source.callId[k]!);
      this.callName[copy] = to.string(source.callName[k]! - 1) + 1;
      this.callPointer[copy] = to.string(source.callPointer[k]!);
      this.callBlock[copy] = source.callBlock[k]!;
      this.callFlags[copy] = source.callFlags[k]!;
      const extras = source.callExtras.get(k);
      if (extras !== undefined) this.callExtras.set(copy, extras);
    }
    k = source.resultStart(i);
    for (; k < source.results && source.resultOwner[k] === i; k++) {
      const copy = this.results++;
      if (copy === this.resultCallId.length) this.growResults(copy + 1);
      this.resultOwner[copy] = at;
      this.resultCallId[copy] = to.callId(source.resultCallId[k]!);
      this.resultPointer[copy] = to.string(source.resultPointer[k]!);
      this.resultName[copy] = to.string(source.resultName[k]! - 1) + 1;
      this.resultNamePointer[copy] = to.string(source.resultNamePointer[k]! - 1) + 1;
      this.resultFlags[copy] = source.resultFlags[k]!;
      const extras = source.resultExtras.get(k);
      if (extras !== undefined) this.resultExtras.set(copy, extras);
    }
    const rare = source.rare.size === 0 ? undefined : source.rare.get(i);
    if (rare !== undefined) this.rare.set(at, rare.firstKeptRef === undefined ? { ...rare } : { ...rare, firstKeptRef: to.id(rare.firstKeptRef) });
    const note = source.notes?.[i];
    if (note !== undefined) this.setNote(at, note);
  }

  /**
   * Entries `from` … `to` - 1 of `source`, which shares these tables, as the next ones: what
   * pushCopy of each would give, the first at `line` and `offset` and the others as far from it as
   * they were, made a column at a time (a repair copies long runs of kept lines, see applyByEntries).
   */
  copyRun(source: EntryStore, from: number, to: number, line: number, offset: number): void {
    const base = this.length;
    const n = to - from;
    if (this.info.length < base + n) this.growEntries(base + n);
    this.length = base + n;
    this.info.set(source.info.subarray(from, to), base);
    this.parentRef.set(source.parentRef.subarray(from, to), base);
    this.byteLength.set(source.byteLength.subarray(from, to), base);
    this.blockCounts.set(source.blockCounts.subarray(from, to), base);
    this.sizeBytes.set(source.sizeBytes.subarray(from, to), base);
    this.sizeKinds.set(source.sizeKinds.subarray(from, to), base);
    if (source.usage !== undefined || this.usage !== undefined) for (let k = 0; k < n; k++) this.setUsage(base + k, source.usage?.[from + k] ?? 0);
    const lineShift = line - source.line(from);
    const offsetShift = offset - source.offset(from);
    for (let k = 0; k < n; k++) {
      const i = from + k;
      this.idRef[base + k] = this.movedPosition(source, i, base + k) ?? source.idRef[i]!;
      this.setLine(base + k, source.line(i) + lineShift);
      this.setOffset(base + k, source.offset(i) + offsetShift);
      if (source.blockCounts[i] === 0xffff) this.manyBlocks.set(base + k, source.manyBlocks.get(i)!);
    }
    if (source.groupRef !== undefined || this.groupRef !== undefined) for (let k = 0; k < n; k++) this.setGroup(base + k, source.group(from + k));
    if (source.sequences !== undefined || this.sequences !== undefined) for (let k = 0; k < n; k++) this.setSequence(base + k, source.sequence(from + k));
    const shift = base - from;
    // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
    const callsFrom = source.callStart(from);
    const callCount = source.callStart(to) - callsFrom;
    const calls = this.calls;
    if (this.callId.length < calls + callCount) this.growCalls(calls + callCount);
    for (let k = 0; k < callCount; k++) this.callOwner[calls + k] = source.callOwner[callsFrom + k]! + shift;
    const callsTo = callsFrom + callCount;
    this.callId.set(source.callId.subarray(callsFrom, callsTo), calls);
    this.callName.set(source.callName.subarray(callsFrom, callsTo), calls);
    this.callPointer.set(source.callPointer.subarray(callsFrom, callsTo), calls);
    this.callBlock.set(source.callBlock.subarray(callsFrom, callsTo), calls);
    this.callFlags.set(source.callFlags.subarray(callsFrom, callsTo), calls);
    if (source.callExtras.size > 0) for (let k = 0; k < callCount; k++) {
      const extras = source.callExtras.get(callsFrom + k);
      if (extras !== undefined) this.callExtras.set(calls + k, extras);
    }
    this.calls += callCount;
    const resultsFrom = source.resultStart(from);
    const resultCount = source.resultStart(to) - resultsFrom;
    const results = this.results;
    if (this.resultCallId.length < results + resultCount) this.growResults(results + resultCount);
    for (let k = 0; k < resultCount; k++) this.resultOwner[results + k] = source.resultOwner[resultsFrom + k]! + shift;
    const resultsTo = resultsFrom + resultCount;
    this.resultCallId.set(source.resultCallId.subarray(resultsFrom, resultsTo), results);
    this.resultPointer.set(source.resultPointer.subarray(resultsFrom, resultsTo), results);
    this.resultName.set(source.resultName.subarray(resultsFrom, resultsTo), results);
    this.resultNamePointer.set(source.resultNamePointer.subarray(resultsFrom, resultsTo), results);
    this.resultFlags.set(source.resultFlags.subarray(resultsFrom, resultsTo), results);
    if (source.resultExtras.size > 0) for (let k = 0; k < resultCount; k++) {
      const extras = source.resultExtras.get(resultsFrom + k);
      if (extras !== undefined) this.resultExtras.set(results + k, extras);
    }
    this.results += resultCount;
    if (source.rare.size > 0) for (let k = 0; k < n; k++) {
      const rare = source.rare.get(from + k);
      if (rare !== undefined) this.rare.set(base + k, { ...rare });
    }
    if (source.notes !== undefined) for (let k = 0; k < n; k++) {
      const note = source.notes[from + k];
      if (note !== undefined) this.setNote(base + k, note);
    }
  }

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
    this.sizeKinds[i] = sizeKindCode(entry.sizeKind);
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

  /** Entry i's replay note (see Entry.replayNote). */
  note(i: number): unknown {
    return this.notes?.[i];
  }

  private setNote(i: number, note: unknown): void {
    const notes = (this.notes ??= []);
    // Filled up to i, never past the end: an array with holes far apart would become a dictionary.
    while (notes.length < i) notes.push(undefined);
    notes[i] = note;
  }

  /** An entry's rare fields, beside the pointer pointerBits may have put there. */
  private pushRare(i: number, held: RareFields): void {
    let rare: RareFields | undefined;
    for (const field in held) {
      // A view of another store (see EntryView.rare) also holds that store's own bookkeeping.
      if (field === 'pointer' || field === 'firstKeptRef') continue;
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

  /** Room for every entry, call, result and id of `other` on top of these: its entries are about to be copied in (see pushCopy). */
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
    this.ids.trim();
    this.callIds.trim();
    between();
  }

  // ---- reads for model code

  offset(i: number): number {
    return this.offsetLow[i]! + (this.offsetHigh === undefined ? 0 : this.offsetHigh[i]! * 2 ** 32);
  }

  blockCount(i: number): number {
    const count = this.blockCounts[i]!;
    return count === 0xffff ? this.manyBlocks.get(i)! : count;
  }

  private setLine(i: number, line: number): void {
    if (line !== i + 1 && this.lines === undefined) this.lines = Uint32Array.from({ length: this.info.length }, (_, at) => at + 1);
    if (this.lines !== undefined) this.lines[i] = line;
  }

  setOffset(i: number, offset: number): void {
    this.offsetLow[i] = offset % 2 ** 32;
    if (offset >= 2 ** 32 || this.offsetHigh !== undefined) (this.offsetHigh ??= new Uint16Array(this.offsetLow.length))[i] = Math.floor(offset / 2 ** 32);
  }

  kind(i: number): EntryKind {
    return KINDS[this.info[i]! & KIND_MASK]!;
  }

  roleCode(i: number): number {
    return (this.info[i]! >> ROLE_SHIFT) & 0x7;
  }

  /** Entry flag by its bit (see Entry's FLAGS). */
  flag(i: number, bit: number): boolean {
    return (this.info[i]! & (1 << (FLAG_SHIFT + bit))) !== 0;
  }

  hasCalls(i: number): boolean {
    return (this.info[i]! & HAS_CALLS) !== 0;
  }

  hasResults(i: number): boolean {
    return (this.info[i]! & HAS_RESULTS) !== 0;
  }

  line(i: number): number {
    return this.lines === undefined ? i + 1 : this.lines[i]!;
  }

  /** Entry i's calls are calls callStart(i) … callEnd(i) - 1. */
  callStart(i: number): number {
    return firstOwned(this.callOwner, this.calls, i);
  }

  callEnd(i: number): number {
    return firstOwned(this.callOwner, this.calls, i + 1);
  }

  resultStart(i: number): number {
    return firstOwned(this.resultOwner, this.results, i);
  }

  resultEnd(i: number): number {
    return firstOwned(this.resultOwner, this.results, i + 1);
  }

  group(i: number): number {
    return this.groupRef === undefined ? -1 : this.groupRef[i]!;
  }

  /** Whether any line carries a number (see sequence). */
  get numbered(): boolean {
    return this.sequences !== undefined;
  }

  /** The line's number in a numbered file; undefined when it carries none. */
  sequence(i: number): number | undefined {
    const value = this.sequences?.[i];
    return value === undefined || Number.isNaN(value) ? undefined : value;
  }

  /** Sets entry i's size facts (a format that settles its replay at the end writes them then, see addLateFacts). */
  setSize(i: number, parts: SizeParts, usage?: number, model?: string): void {
    let bytes = 0;
    let largest: SizeKind | undefined;
    let kinds = 0;
    for (const kind in parts) {
      const part = parts[kind as SizeKind]!;
      bytes += part;
      kinds += 1;
      if (largest === undefined || part > parts[largest]!) largest = kind as SizeKind;
    }
    this.sizeBytes[i] = Math.min(bytes, 0xffffffff);
    this.sizeKinds[i] = sizeKindCode(largest);
    this.setRare(i, 'sizeParts', kinds > 1 ? parts : undefined);
    this.setUsage(i, usage ?? 0);
    this.setRare(i, 'model', model);
  }

  /** Forgets every entry's sizes and usage, before a settling writes them again. */
  clearSizes(): void {
    this.sizeBytes.fill(0);
    this.sizeKinds.fill(0);
    this.usage = undefined;
  }

  /** Entry i's recorded usage (see Entry.usage), undefined when it records none. */
  usageOf(i: number): number | undefined {
    const value = this.usage?.[i];
    return value === undefined || value === 0 ? undefined : value;
  }

  private setUsage(i: number, value: number): void {
    if (value > 0) (this.usage ??= new Uint32Array(this.info.length))[i] = Math.min(value, 0xffffffff);
    else if (this.usage !== undefined) this.usage[i] = 0;
  }

  private setGroup(i: number, group: number): void {
    if (group !== -1) (this.groupRef ??= new Int32Array(this.info.length).fill(-1))[i] = group;
    else if (this.groupRef !== undefined) this.groupRef[i] = -1;
  }

  private setSequence(i: number, value: number | undefined): void {
    if (value !== undefined) (this.sequences ??= new Float64Array(this.info.length).fill(Number.NaN))[i] = value;
    else if (this.sequences !== undefined) this.sequences[i] = Number.NaN;
  }

  pointer(i: number): string {
    const code = this.info[i]! >>> POINTER_SHIFT;
    return code === POINTER_CODES - 1 ? this.rare.get(i)!.pointer! : this.strings.text(code);
  }

  call(k: number): ToolCallRef {
    const name = this.callName[k]!;
    const extras = this.callExtras.get(k);
    return new StoredCall(this.callIds, this.callId[k]!, {
      name: name === 0 ? undefined : this.strings.text(name - 1),
      pointer: this.strings.text(this.callPointer[k]!),
      blockIndex: this.callBlock[k]!,
      partial: (this.callFlags[k]! & PARTIAL) !== 0 ? true : undefined,
      anonymous: (this.callFlags[k]! & ANONYMOUS) !== 0 ? true : undefined,
      missing: extras?.missing,
      changes: extras?.changes,
      conflict: extras?.conflict,
    });
  }

  /** Whether call k can stay in a request: complete, with an id and a name providers accept. Read from the columns; each distinct name is judged once. */
  callUsable(k: number): boolean {
    if (this.callId[k] === -1 || (this.callFlags[k]! & PARTIAL) !== 0) return false;
    if (this.callExtras.size > 0 && this.callExtras.get(k)?.missing !== undefined) return false;
    return !this.callNameRejected(k);
  }

  /** Whether call k's name is missing or one providers reject (toolNameProblem). */
  callNameRejected(k: number): boolean {
    const name = this.callName[k]!;
    return name === 0 || (this.nameFacts(name - 1) & NAME_REJECTED) !== 0;
  }

  /** Whether call k's name has whitespace around it (OpenClaw trims it before sending). */
  callNamePadded(k: number): boolean {
    const name = this.callName[k]!;
    return name !== 0 && (this.nameFacts(name - 1) & NAME_PADDED) !== 0;
  }

  /**
   * Whether result k carries a tool name field that is missing, blank or padded (what
   * missing-tool-result-name reports and repair fills from the call).
   */
  resultNameOdd(k: number): boolean {
    if (this.resultNamePointer[k] === 0) return false;
    const name = this.resultName[k]!;
    return name === 0 || (this.nameFacts(name - 1) & (NAME_BLANK | NAME_PADDED)) !== 0;
  }

  /**
   * What a tool name string is, judged once per distinct name: kept with the store (a store that
   * takes conversation after conversation keeps its strings, and so its verdicts).
   */
  private nameFacts(code: number): number {
    if (code >= this.nameVerdicts.length) this.nameVerdicts = growTo(this.nameVerdicts, this.strings.size);
    let facts = this.nameVerdicts[code]!;
    if (facts === 0) {
      const text = this.strings.text(code);
      const trimmed = text.trim();
      facts = NAME_JUDGED | (toolNameProblem(text) === undefined ? 0 : NAME_REJECTED) | (trimmed !== text ? NAME_PADDED : 0) | (trimmed === '' ? NAME_BLANK : 0);
      this.nameVerdicts[code] = facts;
    }
    return facts;
  }

  result(k: number): ToolResultRef {
    const name = this.resultName[k]!;
    const namePointer = this.resultNamePointer[k]!;
    const extras = this.resultExtras.get(k);
    return new StoredResult(this.callIds, this.resultCallId[k]!, {
      pointer: this.strings.text(this.resultPointer[k]!),
      name: name === 0 ? undefined : this.strings.text(name - 1),
      namePointer: namePointer === 0 ? undefined : this.strings.text(namePointer - 1),
      synthetic: (this.resultFlags[k]! & SYNTHETIC) !== 0,
      anonymous: (this.resultFlags[k]! & ANONYMOUS) !== 0 ? true : undefined,
      changes: extras?.changes,
      conflict: extras?.conflict,
    });
  }

  // ---- writes, for repair's model edits

  setInfo(i: number, clear: number, set: number): void {
    this.info[i] = (this.info[i]! & ~clear) | set;
  }

  setKind(i: number, kind: EntryKind): void {
    this.setInfo(i, KIND_MASK, KIND_CODE[kind]);
  }

  setRole(i: number, role: Role | undefined): void {
    this.setInfo(i, 0x7 << ROLE_SHIFT, roleCode(role) << ROLE_SHIFT);
  }

  setOutcome(i: number, outcome: Outcome | undefined): void {
    this.setInfo(i, 0xf << OUTCOME_SHIFT, outcomeCode(outcome) << OUTCOME_SHIFT);
  }

  setRare<K extends keyof RareFields>(i: number, field: K, value: RareFields[K]): void {
    const rare = this.rare.get(i);
    if (value === undefined) {
      if (rare !== undefined) delete rare[field];
      return;
    }
    if (rare === undefined) this.rare.set(i, { [field]: value });
    else rare[field] = value;
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

  private growEntries(needed: number, exact = false): void {
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

  private growCalls(needed: number, exact = false): void {
    this.callId = growTo(this.callId, needed, exact);
    const size = this.callId.length;
    this.callOwner = growTo(this.callOwner, size);
    this.callName = growTo(this.callName, size);
    this.callPointer = growTo(this.callPointer, size);
    this.callBlock = growTo(this.callBlock, size);
    this.callFlags = growTo(this.callFlags, size);
  }

  private growResults(needed: number, exact = false): void {
    this.resultCallId = growTo(this.resultCallId, needed, exact);
    const size = this.resultCallId.length;
    this.resultOwner = growTo(this.resultOwner, size);
    this.resultPointer = growTo(this.resultPointer, size);
    this.resultName = growTo(this.resultName, size);
    this.resultNamePointer = growTo(this.resultNamePointer, size);
    this.resultFlags = growTo(this.resultFlags, size);
  }
}

/** The first of `count` non-decreasing owners that is `entry` or later. */
function firstOwned(owners: Uint32Array, count: number, entry: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (owners[middle]! < entry) low = middle + 1;
    else high = middle;
  }
  return low;
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}

/** A map's keys in ascending order: entries copied in the order they were added one by one. */
function inOrder(map: ReadonlyMap<number, unknown>): number[] {
  const keys = [...map.keys()];
  for (let k = 1; k < keys.length; k++) if (keys[k]! < keys[k - 1]!) return keys.sort((a, b) => a - b);
  return keys;
}
