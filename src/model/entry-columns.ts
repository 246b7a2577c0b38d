import { firstOwned, growTo, StringTable } from './columns.js';
import type { EntryKind, Outcome, Role, ToolCallRef, ToolResultRef } from './entry.js';
import { FLAG_SHIFT, HAS_CALLS, HAS_RESULTS, KIND_CODE, KIND_MASK, KINDS, outcomeCode, OUTCOME_SHIFT, roleCode, ROLE_SHIFT, POINTER_CODES, POINTER_SHIFT, SIZE_KIND_MASK, SIZE_PARTS, sizeKindCode } from './entry-bits.js';
import { IdTable } from './id-table.js';
import type { RareFields } from './rare-fields.js';
import { SizePartRows } from './size-part-rows.js';
import type { SizeKind, SizeParts } from './size/request-size.js';
import type { StoreTables } from './store-translation.js';
import { StoredCall, StoredResult } from './stored-parts.js';
import { toolNameProblem } from './tool-name.js';

type CallExtras = Pick<ToolCallRef, 'missing' | 'changes' | 'conflict'>;
type ResultExtras = Pick<ToolResultRef, 'changes' | 'conflict'>;

/** Call and result flag bits. */
export const PARTIAL = 1;
export const SYNTHETIC = 1;
export const ANONYMOUS = 2;

/** Tool-name facts (see nameFacts). */
const NAME_JUDGED = 1;
const NAME_REJECTED = 2;
const NAME_PADDED = 4;
const NAME_BLANK = 8;

/**
 * The columns of an EntryStore (see entry-store.ts) and what reads and sets one entry's, call's or
 * result's facts in them: all an EntryView needs. Filling them (push, copies) and sizing them is
 * the store's; the setters some of that uses are open to it and to store-copy.ts.
 */
export class EntryColumns {
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
  protected sequences: Float64Array | undefined;
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
  /** Entry.sizeKind's code (see SIZE_KINDS in entry-bits.ts), 0 for none; with the SIZE_PARTS bit when the entry has rows in sizeParts. */
  sizeKinds = new Uint8Array(0);
  /** Entry.sizeParts of the entries of several kinds. */
  sizeParts = new SizePartRows();
  /** Entry.usage, 0 for none; made at the first entry that records one. */
  usage: Uint32Array | undefined;
  readonly rare = new Map<number, RareFields>();
  /**
   * Each entry's Entry.replayNote, made at the first: a format that notes them notes most lines, and
   * a slot a line costs far less than a map entry and an object (a fifth of a Gemini CLI scan).
   */
  notes: unknown[] | undefined;

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
   * entries can be copied from it as numbers (see store-copy.ts).
   */
  constructor(tables?: StoreTables) {
    this.ids = tables?.ids ?? new IdTable();
    this.callIds = tables?.callIds ?? new IdTable();
    this.strings = tables?.strings ?? new StringTable();
  }

  /** Entry i's replay note (see Entry.replayNote). */
  note(i: number): unknown {
    return this.notes?.[i];
  }

  setNote(i: number, note: unknown): void {
    const notes = (this.notes ??= []);
    // Filled up to i, never past the end: an array with holes far apart would become a dictionary.
    while (notes.length < i) notes.push(undefined);
    notes[i] = note;
  }

  offset(i: number): number {
    return this.offsetLow[i]! + (this.offsetHigh === undefined ? 0 : this.offsetHigh[i]! * 2 ** 32);
  }

  blockCount(i: number): number {
    const count = this.blockCounts[i]!;
    return count === 0xffff ? this.manyBlocks.get(i)! : count;
  }

  setLine(i: number, line: number): void {
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
    if ((this.sizeKinds[i]! & SIZE_PARTS) !== 0) this.sizeParts.remove(i);
    this.sizeKinds[i] = sizeKindCode(largest) | (kinds > 1 ? SIZE_PARTS : 0);
    if (kinds > 1) this.sizeParts.set(i, parts);
    this.setUsage(i, usage ?? 0);
    this.setRare(i, 'model', model);
  }

  /** Forgets every entry's sizes and usage, before a settling writes them again. */
  clearSizes(): void {
    this.sizeBytes.fill(0);
    this.sizeKinds.fill(0);
    this.sizeParts.clear();
    this.usage = undefined;
  }

  /** Entry i's SizeKind code (see SIZE_KINDS in entry-bits.ts), 0 for none. */
  sizeCode(i: number): number {
    return this.sizeKinds[i]! & SIZE_KIND_MASK;
  }

  /** Entry i's bytes by kind when it has several kinds (see Entry.sizeParts). */
  partsOf(i: number): SizeParts | undefined {
    return (this.sizeKinds[i]! & SIZE_PARTS) === 0 ? undefined : this.sizeParts.partsOf(i);
  }

  /** Entry i's recorded usage (see Entry.usage), undefined when it records none. */
  usageOf(i: number): number | undefined {
    const value = this.usage?.[i];
    return value === undefined || value === 0 ? undefined : value;
  }

  setUsage(i: number, value: number): void {
    if (value > 0) (this.usage ??= new Uint32Array(this.info.length))[i] = Math.min(value, 0xffffffff);
    else if (this.usage !== undefined) this.usage[i] = 0;
  }

  setGroup(i: number, group: number): void {
    if (group !== -1) (this.groupRef ??= new Int32Array(this.info.length).fill(-1))[i] = group;
    else if (this.groupRef !== undefined) this.groupRef[i] = -1;
  }

  setSequence(i: number, value: number | undefined): void {
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
}
