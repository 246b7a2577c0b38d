import type { EntryKind, Outcome, Role, ToolCallRef, ToolResultRef } from './entry.js';
import { FLAGS } from './entry.js';
import { FLAG_BITS, FLAG_SHIFT, HAS_CALLS, HAS_RESULTS, KINDS, NULL_REF, OUTCOMES, OUTCOME_SHIFT, ROLES, ROLE_SHIFT, SIZE_KINDS } from './entry-bits.js';
import type { EntryColumns } from './entry-columns.js';
import type { RareFields } from './rare-fields.js';
import type { SizeKind } from './size/request-size.js';

/**
 * One entry of an EntryStore, read through the same fields a decoder fills on an `Entry`. A view
 * is made per request and holds nothing but its position (and, once read, its calls and results,
 * so one view hands out the same objects each time). Two views of one entry are different
 * objects: code that keys sets or maps by entry uses `EntryStore.toArray()` or indices.
 */
export class EntryView {
  private calls: ToolCallRef[] | undefined;
  private results: ToolResultRef[] | undefined;

  constructor(
    readonly store: EntryColumns,
    readonly index: number,
  ) {}

  get line(): number {
    return this.store.line(this.index);
  }
  get kind(): EntryKind {
    return KINDS[this.store.info[this.index]! & 0x7]!;
  }
  set kind(kind: EntryKind) {
    this.store.setKind(this.index, kind);
  }
  get role(): Role | undefined {
    return ROLES[(this.store.info[this.index]! >> ROLE_SHIFT) & 0x7];
  }
  set role(role: Role | undefined) {
    this.store.setRole(this.index, role);
  }
  get outcome(): Outcome | undefined {
    return OUTCOMES[(this.store.info[this.index]! >> OUTCOME_SHIFT) & 0xf];
  }
  set outcome(outcome: Outcome | undefined) {
    this.store.setOutcome(this.index, outcome);
  }
  get pointer(): string {
    return this.store.pointer(this.index);
  }
  get id(): string | undefined {
    const ref = this.store.idRef[this.index]!;
    return ref === -1 ? undefined : this.store.ids.text(ref);
  }
  set id(id: string | undefined) {
    this.store.idRef[this.index] = id === undefined ? -1 : this.store.ids.intern(id);
  }
  get parentId(): string | null | undefined {
    const ref = this.store.parentRef[this.index]!;
    return ref === -1 ? undefined : ref === NULL_REF ? null : this.store.ids.text(ref);
  }
  set parentId(parentId: string | null | undefined) {
    this.store.parentRef[this.index] = parentId === undefined ? -1 : parentId === null ? NULL_REF : this.store.ids.intern(parentId);
  }
  get group(): string | undefined {
    const ref = this.store.group(this.index);
    return ref === -1 ? undefined : this.store.ids.text(ref);
  }
  get blockCount(): number {
    return this.store.blockCount(this.index);
  }
  get offset(): number {
    return this.store.offset(this.index);
  }
  set offset(offset: number) {
    this.store.setOffset(this.index, offset);
  }
  get byteLength(): number {
    return this.store.byteLength[this.index]!;
  }
  set byteLength(length: number) {
    this.store.byteLength[this.index] = length;
  }
  get sizeBytes(): number {
    return this.store.sizeBytes[this.index]!;
  }
  get sizeKind(): SizeKind | undefined {
    const code = this.store.sizeCode(this.index);
    return code === 0 ? undefined : SIZE_KINDS[code - 1];
  }
  get usage(): number | undefined {
    return this.store.usageOf(this.index);
  }
  get flags(): number {
    return (this.store.info[this.index]! >>> FLAG_SHIFT) & FLAG_BITS;
  }
  set flags(flags: number) {
    this.store.setInfo(this.index, FLAG_BITS << FLAG_SHIFT, (flags & FLAG_BITS) << FLAG_SHIFT);
  }
  get rare(): RareFields | undefined {
    return this.store.rare.get(this.index);
  }

  get toolCalls(): ToolCallRef[] | undefined {
    if (this.calls === undefined && (this.store.info[this.index]! & HAS_CALLS) !== 0) {
      const calls: ToolCallRef[] = [];
      for (let k = this.store.callStart(this.index), end = this.store.callEnd(this.index); k < end; k++) calls.push(this.store.call(k));
      this.calls = calls;
    }
    return this.calls;
  }
  /** Only clearing is supported: repair forgets an entry's calls when it drops the entry. */
  set toolCalls(calls: ToolCallRef[] | undefined) {
    if (calls !== undefined) throw new Error('EntryView: tool calls can only be cleared');
    this.store.setInfo(this.index, HAS_CALLS, 0);
    this.calls = undefined;
  }
  get toolResults(): ToolResultRef[] | undefined {
    if (this.results === undefined && (this.store.info[this.index]! & HAS_RESULTS) !== 0) {
      const results: ToolResultRef[] = [];
      for (let k = this.store.resultStart(this.index), end = this.store.resultEnd(this.index); k < end; k++) results.push(this.store.result(k));
      this.results = results;
    }
    return this.results;
  }
  set toolResults(results: ToolResultRef[] | undefined) {
    if (results !== undefined) throw new Error('EntryView: tool results can only be cleared');
    this.store.setInfo(this.index, HAS_RESULTS, 0);
    this.results = undefined;
  }

  get logicalParentId() {
    return this.rare?.logicalParentId;
  }
  get serverTools() {
    return this.rare?.serverTools;
  }
  get header() {
    return this.rare?.header;
  }
  get firstKeptId() {
    return this.rare?.firstKeptId;
  }
  get blankTextBlocks() {
    return this.rare?.blankTextBlocks;
  }
  get whitespaceTextBlocks() {
    return this.rare?.whitespaceTextBlocks;
  }
  get sequence() {
    return this.store.sequence(this.index);
  }
  get rollsBackTurns() {
    return this.rare?.rollsBackTurns;
  }
  get wipesHistory() {
    return this.rare?.wipesHistory;
  }
  get replayNote(): unknown {
    return this.store.note(this.index);
  }
  get placeholderTurns() {
    return this.rare?.placeholderTurns;
  }
  get emptyTurns() {
    return this.rare?.emptyTurns;
  }
  get trailingResults() {
    return this.rare?.trailingResults;
  }
  get keptHistoryProblems() {
    return this.rare?.keptHistoryProblems;
  }
  get lostType() {
    return this.rare?.lostType;
  }
  get unreadableParts() {
    return this.rare?.unreadableParts;
  }
  get schemaBreaks() {
    return this.rare?.schemaBreaks;
  }
  get agent() {
    return this.rare?.agent;
  }
  get sizeParts() {
    return this.store.partsOf(this.index);
  }
  get model() {
    return this.rare?.model;
  }
  get documents() {
    return this.rare?.documents;
  }
  get longString() {
    return this.rare?.longString;
  }
}

export interface EntryView {
  inContext: boolean;
  transcriptOnly: boolean;
  parentMissing: boolean;
  linksToPrevious: boolean;
  emptyContent: boolean;
  blankText: boolean;
  signedThinking: boolean;
  resultsAfterOther: boolean;
}

FLAGS.forEach((name, bit) => {
  const mask = 1 << (FLAG_SHIFT + bit);
  Object.defineProperty(EntryView.prototype, name, {
    get(this: EntryView) {
      return (this.store.info[this.index]! & mask) !== 0;
    },
    set(this: EntryView, value: boolean) {
      this.store.setInfo(this.index, mask, value ? mask : 0);
    },
  });
});
