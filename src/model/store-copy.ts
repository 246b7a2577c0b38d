import { POINTER_CODES, POINTER_SHIFT, SIZE_PARTS, flagMask } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';
import { SHARED, type Translation } from './store-translation.js';

// Entries copied from one store into another as numbers, never as Entry objects: a part of a
// file another thread read (appendStore), and the lines a repair keeps (pushCopy, copyRun).

const LINKS_TO_PREVIOUS = flagMask('linksToPrevious');

/**
 * For entry i of `source` copied to position `at` of `into`: the handle of its new id when it is named
 * by its own position (a file replayed in order, see Entry.linksToPrevious), which moves with it;
 * undefined when it keeps its id.
 */
export function movedPosition(into: EntryStore, source: EntryStore, i: number, at: number): number | undefined {
  if ((source.info[i]! & LINKS_TO_PREVIOUS) === 0 || at === i) return undefined;
  const ref = source.idRef[i]!;
  return ref !== -1 && source.ids.position(ref) === i ? into.ids.internPosition(at) : undefined;
}

/**
 * Every entry of `source` after `into`'s, in order, `lines` lines further down (a part of a file
 * another thread read): what pushCopy of each would give, made a column at a time. Their calls
 * and results follow these in the same order, so none is looked up (four binary searches an
 * entry, a third of a join, when copied one entry at a time); 33 ms became 20 ms for a
 * Gemini CLI session's second half.
 */
export function appendStore(into: EntryStore, source: EntryStore, lines: number, to: Translation): void {
  const base = into.length;
  const n = source.length;
  if (into.info.length < base + n) into.growEntries(base + n);
  into.length = base + n;
  for (let i = 0; i < n; i++) {
    const info = source.info[i]!;
    const pointer = info >>> POINTER_SHIFT;
    into.info[base + i] = pointer === POINTER_CODES - 1 ? info : ((info & ((1 << POINTER_SHIFT) - 1)) | (to.string(pointer) << POINTER_SHIFT)) >>> 0;
    // A positional id names the entry's place, which moves by `base`.
    into.idRef[base + i] = movedPosition(into, source, i, base + i) ?? to.id(source.idRef[i]!);
    into.parentRef[base + i] = to.id(source.parentRef[i]!);
  }
  if (source.groupRef !== undefined) for (let i = 0; i < n; i++) into.setGroup(base + i, to.id(source.groupRef[i]!));
  else if (into.groupRef !== undefined) into.groupRef.fill(-1, base, base + n);
  if (source.numbered || into.numbered) for (let i = 0; i < n; i++) into.setSequence(base + i, source.sequence(i));
  // Numbered as their place unless a line was skipped, here or there.
  if (source.lines !== undefined || into.lines !== undefined || lines !== base) for (let i = 0; i < n; i++) into.setLine(base + i, source.line(i) + lines);
  if (source.offsetHigh === undefined && into.offsetHigh === undefined) into.offsetLow.set(source.offsetLow.subarray(0, n), base);
  else for (let i = 0; i < n; i++) into.setOffset(base + i, source.offset(i));
  into.byteLength.set(source.byteLength.subarray(0, n), base);
  into.blockCounts.set(source.blockCounts.subarray(0, n), base);
  into.sizeBytes.set(source.sizeBytes.subarray(0, n), base);
  into.sizeKinds.set(source.sizeKinds.subarray(0, n), base);
  into.sizeParts.copyFrom(source.sizeParts, 0, n, base);
  if (source.usage !== undefined || into.usage !== undefined) for (let i = 0; i < n; i++) into.setUsage(base + i, source.usage?.[i] ?? 0);
  for (const i of inOrder(source.manyBlocks)) into.manyBlocks.set(base + i, source.manyBlocks.get(i)!);
  // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
  const calls = into.calls;
  if (into.callId.length < calls + source.calls) into.growCalls(calls + source.calls);
  for (let k = 0; k < source.calls; k++) {
    into.callOwner[calls + k] = source.callOwner[k]! + base;
    into.callId[calls + k] = to.callId(source.callId[k]!);
    into.callName[calls + k] = to.string(source.callName[k]! - 1) + 1;
    into.callPointer[calls + k] = to.string(source.callPointer[k]!);
  }
  into.callBlock.set(source.callBlock.subarray(0, source.calls), calls);
  into.callFlags.set(source.callFlags.subarray(0, source.calls), calls);
  for (const k of inOrder(source.callExtras)) into.callExtras.set(calls + k, source.callExtras.get(k)!);
  into.calls += source.calls;
  const results = into.results;
  if (into.resultCallId.length < results + source.results) into.growResults(results + source.results);
  for (let k = 0; k < source.results; k++) {
    into.resultOwner[results + k] = source.resultOwner[k]! + base;
    into.resultCallId[results + k] = to.callId(source.resultCallId[k]!);
    into.resultPointer[results + k] = to.string(source.resultPointer[k]!);
    into.resultName[results + k] = to.string(source.resultName[k]! - 1) + 1;
    into.resultNamePointer[results + k] = to.string(source.resultNamePointer[k]! - 1) + 1;
  }
  into.resultFlags.set(source.resultFlags.subarray(0, source.results), results);
  for (const k of inOrder(source.resultExtras)) into.resultExtras.set(results + k, source.resultExtras.get(k)!);
  into.results += source.results;
  for (const i of inOrder(source.rare)) {
    const rare = source.rare.get(i)!;
    into.rare.set(base + i, rare.firstKeptRef === undefined ? { ...rare } : { ...rare, firstKeptRef: to.id(rare.firstKeptRef) });
  }
  const notes = source.notes;
  if (notes !== undefined) for (let i = 0; i < notes.length; i++) if (notes[i] !== undefined) into.setNote(base + i, notes[i]);
}

/**
 * Entry i of `source` as the next entry of `into`, written at another line and offset (and under another
 * id, `idRef`, for positional ids that follow the entry's position). Its facts are copied as numbers,
 * through `to` when the source has tables of its own (another thread's half of a file).
 */
export function pushCopy(into: EntryStore, source: EntryStore, i: number, place: { line: number; offset: number; byteLength: number; idRef?: number }, to: Translation = SHARED): void {
  const at = into.length;
  if (at === into.info.length) into.growEntries(at + 1);
  into.length = at + 1;
  const info = source.info[i]!;
  const pointer = info >>> POINTER_SHIFT;
  into.info[at] = pointer === POINTER_CODES - 1 ? info : ((info & ((1 << POINTER_SHIFT) - 1)) | (to.string(pointer) << POINTER_SHIFT)) >>> 0;
  into.idRef[at] = place.idRef ?? to.id(source.idRef[i]!);
  into.parentRef[at] = to.id(source.parentRef[i]!);
  into.setGroup(at, to.id(source.group(i)));
  into.setSequence(at, source.sequence(i));
  into.setLine(at, place.line);
  into.setOffset(at, place.offset);
  into.byteLength[at] = place.byteLength;
  into.blockCounts[at] = source.blockCounts[i]!;
  into.sizeBytes[at] = source.sizeBytes[i]!;
  into.sizeKinds[at] = source.sizeKinds[i]!;
  if ((source.sizeKinds[i]! & SIZE_PARTS) !== 0) into.sizeParts.copyFrom(source.sizeParts, i, i + 1, at - i);
  into.setUsage(at, source.usage?.[i] ?? 0);
  if (source.blockCounts[i] === 0xffff) into.manyBlocks.set(at, source.manyBlocks.get(i)!);
  // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
  let k = source.callStart(i);
  for (; k < source.calls && source.callOwner[k] === i; k++) {
    const copy = into.calls++;
    if (copy === into.callId.length) into.growCalls(copy + 1);
    into.callOwner[copy] = at;
    into.callId[copy] = to.callId(source.callId[k]!);
    into.callName[copy] = to.string(source.callName[k]! - 1) + 1;
    into.callPointer[copy] = to.string(source.callPointer[k]!);
    into.callBlock[copy] = source.callBlock[k]!;
    into.callFlags[copy] = source.callFlags[k]!;
    const extras = source.callExtras.get(k);
    if (extras !== undefined) into.callExtras.set(copy, extras);
  }
  k = source.resultStart(i);
  for (; k < source.results && source.resultOwner[k] === i; k++) {
    const copy = into.results++;
    if (copy === into.resultCallId.length) into.growResults(copy + 1);
    into.resultOwner[copy] = at;
    into.resultCallId[copy] = to.callId(source.resultCallId[k]!);
    into.resultPointer[copy] = to.string(source.resultPointer[k]!);
    into.resultName[copy] = to.string(source.resultName[k]! - 1) + 1;
    into.resultNamePointer[copy] = to.string(source.resultNamePointer[k]! - 1) + 1;
    into.resultFlags[copy] = source.resultFlags[k]!;
    const extras = source.resultExtras.get(k);
    if (extras !== undefined) into.resultExtras.set(copy, extras);
  }
  const rare = source.rare.size === 0 ? undefined : source.rare.get(i);
  if (rare !== undefined) into.rare.set(at, rare.firstKeptRef === undefined ? { ...rare } : { ...rare, firstKeptRef: to.id(rare.firstKeptRef) });
  const note = source.notes?.[i];
  if (note !== undefined) into.setNote(at, note);
}

/**
 * Entries `from` … `to` - 1 of `source`, which shares `into`'s tables, as the next ones of `into`: what
 * pushCopy of each would give, the first at `line` and `offset` and the others as far from it as
 * they were, made a column at a time (a repair copies long runs of kept lines, see applyByEntries).
 */
export function copyRun(into: EntryStore, source: EntryStore, from: number, to: number, line: number, offset: number): void {
  const base = into.length;
  const n = to - from;
  if (into.info.length < base + n) into.growEntries(base + n);
  into.length = base + n;
  into.info.set(source.info.subarray(from, to), base);
  into.parentRef.set(source.parentRef.subarray(from, to), base);
  into.byteLength.set(source.byteLength.subarray(from, to), base);
  into.blockCounts.set(source.blockCounts.subarray(from, to), base);
  into.sizeBytes.set(source.sizeBytes.subarray(from, to), base);
  into.sizeKinds.set(source.sizeKinds.subarray(from, to), base);
  into.sizeParts.copyFrom(source.sizeParts, from, to, base - from);
  if (source.usage !== undefined || into.usage !== undefined) for (let k = 0; k < n; k++) into.setUsage(base + k, source.usage?.[from + k] ?? 0);
  const lineShift = line - source.line(from);
  const offsetShift = offset - source.offset(from);
  for (let k = 0; k < n; k++) {
    const i = from + k;
    into.idRef[base + k] = movedPosition(into, source, i, base + k) ?? source.idRef[i]!;
    into.setLine(base + k, source.line(i) + lineShift);
    into.setOffset(base + k, source.offset(i) + offsetShift);
    if (source.blockCounts[i] === 0xffff) into.manyBlocks.set(base + k, source.manyBlocks.get(i)!);
  }
  if (source.groupRef !== undefined || into.groupRef !== undefined) for (let k = 0; k < n; k++) into.setGroup(base + k, source.group(from + k));
  if (source.numbered || into.numbered) for (let k = 0; k < n; k++) into.setSequence(base + k, source.sequence(from + k));
  const shift = base - from;
  // An entry's calls are there whether or not it still says it has them (repair clears the flag, not the table).
  const callsFrom = source.callStart(from);
  const callCount = source.callStart(to) - callsFrom;
  const calls = into.calls;
  if (into.callId.length < calls + callCount) into.growCalls(calls + callCount);
  for (let k = 0; k < callCount; k++) into.callOwner[calls + k] = source.callOwner[callsFrom + k]! + shift;
  const callsTo = callsFrom + callCount;
  into.callId.set(source.callId.subarray(callsFrom, callsTo), calls);
  into.callName.set(source.callName.subarray(callsFrom, callsTo), calls);
  into.callPointer.set(source.callPointer.subarray(callsFrom, callsTo), calls);
  into.callBlock.set(source.callBlock.subarray(callsFrom, callsTo), calls);
  into.callFlags.set(source.callFlags.subarray(callsFrom, callsTo), calls);
  if (source.callExtras.size > 0) for (let k = 0; k < callCount; k++) {
    const extras = source.callExtras.get(callsFrom + k);
    if (extras !== undefined) into.callExtras.set(calls + k, extras);
  }
  into.calls += callCount;
  const resultsFrom = source.resultStart(from);
  const resultCount = source.resultStart(to) - resultsFrom;
  const results = into.results;
  if (into.resultCallId.length < results + resultCount) into.growResults(results + resultCount);
  for (let k = 0; k < resultCount; k++) into.resultOwner[results + k] = source.resultOwner[resultsFrom + k]! + shift;
  const resultsTo = resultsFrom + resultCount;
  into.resultCallId.set(source.resultCallId.subarray(resultsFrom, resultsTo), results);
  into.resultPointer.set(source.resultPointer.subarray(resultsFrom, resultsTo), results);
  into.resultName.set(source.resultName.subarray(resultsFrom, resultsTo), results);
  into.resultNamePointer.set(source.resultNamePointer.subarray(resultsFrom, resultsTo), results);
  into.resultFlags.set(source.resultFlags.subarray(resultsFrom, resultsTo), results);
  if (source.resultExtras.size > 0) for (let k = 0; k < resultCount; k++) {
    const extras = source.resultExtras.get(resultsFrom + k);
    if (extras !== undefined) into.resultExtras.set(results + k, extras);
  }
  into.results += resultCount;
  if (source.rare.size > 0) for (let k = 0; k < n; k++) {
    const rare = source.rare.get(from + k);
    if (rare !== undefined) into.rare.set(base + k, { ...rare });
  }
  if (source.notes !== undefined) for (let k = 0; k < n; k++) {
    const note = source.notes[from + k];
    if (note !== undefined) into.setNote(base + k, note);
  }
}

/** A map's keys in ascending order: entries copied in the order they were added one by one. */
function inOrder(map: ReadonlyMap<number, unknown>): number[] {
  const keys = [...map.keys()];
  for (let k = 1; k < keys.length; k++) if (keys[k]! < keys[k - 1]!) return keys.sort((a, b) => a - b);
  return keys;
}
