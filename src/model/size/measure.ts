import type { Analysis } from '../analysis.js';
import { ASSISTANT } from '../entry-bits.js';
import type { EntryStore } from '../entry-store.js';
import type { RareFields } from '../rare-fields.js';
import { SIZE_KIND_MASK, SIZE_KINDS, SIZE_PARTS } from '../entry-bits.js';
import { documentTokens, estimatorFor, imageTokens, sessionOverhead, textTokens, type TokenEstimator } from './estimate.js';
import type { MeasuredMedia, RequestSize, SizeKind, SizeShare } from './request-size.js';

/** How many of the largest entries the breakdown lists. */
const LARGEST = 30;

/** JSON a request wraps each message in (`{"role":"user","content":[…]},`), beyond its content. */
const MESSAGE_BYTES = 40;

const measured = new WeakMap<object, RequestSize>();

/**
 * The request the session's replay path would send, measured: the facts its format's decoder
 * noted on each entry, added up along `analysis.replay` (compaction honoured). Input tokens are
 * the last usage the session recorded on that path plus an estimate of what follows it. Measured
 * once per replayed context: the size rules, explain and slim's planner share it. The estimator is
 * the one chosen for the session's model (estimatorFor), unless one is given.
 */
export function measureRequest(analysis: Analysis, estimator?: TokenEstimator): RequestSize {
  const context = analysis.replay.context;
  if (estimator === undefined) {
    const known = measured.get(context);
    if (known !== undefined) return known;
  }
  const size = measure(analysis, estimator ?? estimatorFor(modelOf(analysis).model, analysis.transcript.format));
  if (estimator === undefined) measured.set(context, size);
  return size;
}

function emptyShares(): Record<SizeKind, SizeShare> {
  const shares = {} as Record<SizeKind, SizeShare>;
  for (const kind of SIZE_KINDS) shares[kind] = { bytes: 0, tokens: 0, count: 0 };
  return shares;
}

function measure(analysis: Analysis, estimator: TokenEstimator): RequestSize {
  const store = analysis.entries;
  const { indices, messageIndex, blockIndex } = sentOf(analysis);
  const anchor = findAnchor(analysis);
  const byKind = emptyShares();
  const byTool = new Map<string, SizeShare>();
  const callNames = new Map<number, number>();
  const largest: RequestSize['breakdown']['largest'] = [];
  const media: MeasuredMedia[] = [];
  let bytes = 0;
  let estimated = 0;
  let messages = 0;
  let lastMessage = -1;
  let mostToolCalls: RequestSize['mostToolCalls'];
  let callsInMessage = 0;
  let longestString: RequestSize['longestString'];
  const afterAnchor = (at: number) => anchor === undefined || at >= anchor.from;
  for (let at = 0; at < indices.length; at++) {
    const i = indices[at]!;
    const message = messageIndex[at]!;
    if (message === -1) continue;
    // Read from the columns, no object made for an entry of one kind: this runs for every entry sent.
    const code = store.sizeKinds[i]! & SIZE_KIND_MASK;
    const hasParts = (store.sizeKinds[i]! & SIZE_PARTS) !== 0;
    const entryBytes = store.sizeBytes[i]!;
    const rare = store.rare.size === 0 ? undefined : store.rare.get(i);
    let tokens = 0;
    if (message !== lastMessage) {
      lastMessage = message;
      messages += 1;
      callsInMessage = 0;
      bytes += MESSAGE_BYTES;
      // Framing is no kind of content: the breakdown shows it as 'other'.
      tokens += estimator.perMessage;
      byKind.other.tokens += estimator.perMessage;
    }
    let toolBytes = 0;
    if (!hasParts) {
      if (code !== 0) {
        const kind = SIZE_KINDS[code - 1]!;
        const share = byKind[kind];
        const own = textTokens(kind, entryBytes, estimator);
        tokens += own;
        share.bytes += entryBytes;
        share.tokens += own;
        share.count += 1;
        if (kind === 'toolResult' || kind === 'toolCall') toolBytes = entryBytes;
      }
    } else {
      const rows = store.sizeParts;
      for (let k = rows.start(i); k < rows.count && rows.owner[k] === i; k++) {
        const kind = SIZE_KINDS[rows.kind[k]! - 1]!;
        const part = rows.bytes[k]!;
        const share = byKind[kind];
        const own = textTokens(kind, part, estimator);
        tokens += own;
        share.bytes += part;
        share.tokens += own;
        share.count += 1;
        if (kind === 'toolResult' || kind === 'toolCall') toolBytes += part;
      }
    }
    const calls = store.hasCalls(i) ? store.callEnd(i) - store.callStart(i) : 0;
    if (calls > 0) {
      for (let k = store.callStart(i); k < store.callEnd(i); k++) if (store.callId[k] !== -1) callNames.set(store.callId[k]!, store.callName[k]!);
      callsInMessage += calls;
      if (mostToolCalls === undefined || callsInMessage > mostToolCalls.count) mostToolCalls = { entry: i, messageIndex: message, count: callsInMessage };
    }
    if (rare?.images !== undefined || rare?.documents !== undefined) tokens += addMedia(media, byKind, rare, i, message, blockIndex[at]!);
    if (afterAnchor(at)) estimated += tokens;
    bytes += entryBytes;
    const tool = toolBytes === 0 ? undefined : toolOf(store, i, callNames);
    if (tool !== undefined) {
      const share = byTool.get(tool) ?? { bytes: 0, tokens: 0, count: 0 };
      share.bytes += toolBytes;
      share.tokens += tokens;
      share.count += 1;
      byTool.set(tool, share);
    }
    if (code !== 0 && (largest.length < LARGEST || largest[LARGEST - 1]!.bytes < entryBytes)) {
      pushLargest(largest, { entry: i, line: store.line(i), kind: SIZE_KINDS[code - 1]!, bytes: entryBytes, tokens, ...(tool === undefined ? {} : { tool }) });
    }
    const longest = rare?.longString;
    if (longest !== undefined && (longestString === undefined || longest.length > longestString.length)) longestString = { entry: i, ...longest };
  }
  const overhead = anchor === undefined ? sessionOverhead(analysis.transcript.format) : 0;
  const base = anchor === undefined ? overhead : anchor.tokens;
  const tokens = Math.ceil(base + estimated);
  const framing = messages * estimator.framing;
  const size: RequestSize = {
    tokens: {
      tokens,
      high: Math.ceil(base + estimated * (1 + estimator.margin) + framing),
      framing,
      estimator: estimator.name,
      ...(anchor === undefined ? {} : { anchor: { entry: anchor.entry, tokens: anchor.tokens } }),
    },
    bytes,
    messages,
    media,
    mediaCount: media.reduce((sum, item) => sum + (item.kind === 'image' ? 1 : item.pages ?? 1), 0),
    breakdown: {
      byKind,
      byTool: [...byTool].map(([tool, share]) => ({ tool, ...share })).sort((a, b) => b.bytes - a.bytes),
      largest,
    },
  };
  const { model, window } = modelOf(analysis);
  if (model !== undefined) size.model = model;
  if (window !== undefined) size.window = window;
  if (longestString !== undefined) size.longestString = longestString;
  if (mostToolCalls !== undefined) size.mostToolCalls = mostToolCalls;
  return size;
}

/** An entry's images and documents, as the request holds them: their tokens, added to the breakdown and returned. */
function addMedia(media: MeasuredMedia[], byKind: Record<SizeKind, SizeShare>, rare: RareFields, entry: number, messageIndex: number, blockIndex: number): number {
  let tokens = 0;
  const add = (ref: MediaRef, kind: MeasuredMedia['kind'], base64Length: number, own: number, extra: Partial<MeasuredMedia>): void => {
    const item: MeasuredMedia = { entry, pointer: ref.pointer, messageIndex, blockIndex: blockIndex + ref.blockIndex, kind, base64Length, bytes: ref.bytes, inToolResult: ref.inToolResult === true, ...extra };
    media.push(item);
    byKind[kind === 'image' ? 'image' : 'document'].tokens += own;
    tokens += own;
  };
  for (const image of rare.images ?? []) {
    const extra: Partial<MeasuredMedia> = {};
    const mediaType = image.declared ?? image.actual;
    if (mediaType !== undefined) extra.mediaType = mediaType;
    if (image.width !== undefined && image.height !== undefined) Object.assign(extra, { width: image.width, height: image.height });
    add(image, 'image', image.base64Length ?? Math.ceil(image.bytes / 3) * 4, imageTokens(image.width, image.height), extra);
  }
  for (const document of rare.documents ?? []) {
    const extra: Partial<MeasuredMedia> = {};
    if (document.mediaType !== undefined) extra.mediaType = document.mediaType;
    if (document.pages !== undefined) extra.pages = document.pages;
    add(document, 'document', document.base64Length, documentTokens(document.pages, document.bytes), extra);
  }
  return tokens;
}

/** What an image's and a document's reference share, as addMedia reads them. */
interface MediaRef {
  pointer: string;
  blockIndex: number;
  bytes: number;
  inToolResult?: boolean;
}

/** The tool an entry's calls or results belong to: the result's own name, else its call's. */
function toolOf(store: EntryStore, i: number, callNames: Map<number, number>): string | undefined {
  if (store.hasResults(i)) {
    const k = store.resultStart(i);
    const name = store.resultName[k]!;
    if (name !== 0) return store.strings.text(name - 1);
    const call = callNames.get(store.resultCallId[k]!);
    if (call !== undefined && call !== 0) return store.strings.text(call - 1);
    return undefined;
  }
  if (store.hasCalls(i)) {
    const name = store.callName[store.callStart(i)]!;
    return name === 0 ? undefined : store.strings.text(name - 1);
  }
  return undefined;
}

function pushLargest(largest: RequestSize['breakdown']['largest'], item: RequestSize['breakdown']['largest'][number]): void {
  if (largest.length === LARGEST && largest[LARGEST - 1]!.bytes >= item.bytes) return;
  let at = largest.length;
  while (at > 0 && largest[at - 1]!.bytes < item.bytes) at--;
  largest.splice(at, 0, item);
  if (largest.length > LARGEST) largest.pop();
}

/** The entries the request holds, with where a provider sees each, and the path they were taken from. */
interface Sent {
  indices: Int32Array;
  messageIndex: Int32Array;
  blockIndex: Int32Array;
  path: ArrayLike<number>;
}

const settled = new WeakMap<object, Sent>();

/**
 * The replayed context; for a format that settles its replay at the end of the file (Gemini
 * CLI: its context holds no message, the settled history is in the entries' size facts), the
 * entries that carry sizes or usage, in file order, one message each.
 */
function sentOf(analysis: Analysis): Sent {
  const context = analysis.replay.context;
  if (context.length > 0) return { indices: context.indices, messageIndex: context.messageIndex, blockIndex: context.blockIndex, path: analysis.replayed };
  const known = settled.get(context);
  if (known !== undefined) return known;
  const store = analysis.entries;
  const found: number[] = [];
  for (let i = 0; i < store.length; i++) if (store.sizeKinds[i] !== 0 || store.usageOf(i) !== undefined) found.push(i);
  const indices = Int32Array.from(found);
  const sent = { indices, messageIndex: Int32Array.from(found, (_, at) => at), blockIndex: new Int32Array(found.length), path: indices };
  settled.set(context, sent);
  return sent;
}

/** A usage the session recorded, and the first context position it does not count. */
export interface UsageAnchor {
  entry: number;
  tokens: number;
  /** Context position where what the usage did not count starts (see usageAnchors). */
  from: number;
}

function findAnchor(analysis: Analysis): UsageAnchor | undefined {
  return usageAnchors(analysis, true)[0];
}

/**
 * The usages recorded on the replayed path, in path order (only the last with `last`), each with
 * the first context position it does not count: the response that recorded it was not part of its
 * own request, so what it leaves out starts at that response (the assistant entries just before
 * the usage, or the entry itself). A usage before the latest compaction counted history no longer
 * sent, and is no anchor. The calibration (scripts/calibrate-tokens.mjs) compares consecutive ones.
 */
export function usageAnchors(analysis: Analysis, last = false): UsageAnchor[] {
  const store = analysis.entries;
  if (store.usage === undefined) return [];
  const { indices, path } = sentOf(analysis);
  const firstSent = indices.length === 0 ? -1 : indices[0]!;
  const compacted = firstSent !== -1 && store.kind(firstSent) === 'compaction';
  const anchors: UsageAnchor[] = [];
  const cleared = clearedThrough(analysis, path);
  for (let n = path.length - 1; n > cleared; n--) {
    const i = path[n]!;
    const tokens = store.usageOf(i);
    if (tokens === undefined) continue;
    if (compacted && i < firstSent) break;
    let from = lastPositionUpTo(indices, i);
    if (from === -1) break;
    if (indices[from] !== i && store.roleCode(indices[from]!) !== ASSISTANT) from += 1;
    while (from > 0 && store.roleCode(indices[from - 1]!) === ASSISTANT && store.roleCode(indices[from]!) === ASSISTANT) from -= 1;
    anchors.push({ entry: i, tokens, from });
    if (last) break;
  }
  return anchors.reverse();
}

/**
 * The last path position whose recorded usage the agent sets to zero on resume (see
 * Entry.clearsUsageThrough), or -1: the last compaction on the path that says so, read from its
 * entry's facts, so it holds however the file was loaded.
 */
function clearedThrough(analysis: Analysis, path: ArrayLike<number>): number {
  const store = analysis.entries;
  if (store.rare.size === 0) return -1;
  let compaction = -1;
  let through: string | undefined;
  for (const [i, rare] of store.rare) if (rare.clearsUsageThrough !== undefined && i > compaction) [compaction, through] = [i, rare.clearsUsageThrough];
  if (through === undefined) return -1;
  let onPath = false;
  for (let n = 0; n < path.length && !onPath; n++) onPath = path[n] === compaction;
  if (!onPath) return -1;
  for (let n = path.length - 1; n >= 0; n--) if (store.at(path[n]!).id === through) return n;
  return -1;
}

/** The last position whose entry index is at most `entry` (indices ascend, but for results replayed beside their calls). */
function lastPositionUpTo(indices: Int32Array, entry: number): number {
  for (let at = indices.length - 1; at >= 0; at--) if (indices[at]! <= entry) return at;
  return -1;
}

/**
 * The model of the last assistant turn sent: the last one named at or before it in the file (a
 * model is noted where it changes), with the window the file records for it: the last noted at
 * or before that turn, and not before the model was.
 */
function modelOf(analysis: Analysis): { model?: string; window?: number } {
  const store = analysis.entries;
  const { indices } = sentOf(analysis);
  let last = -1;
  for (let at = indices.length - 1; at >= 0; at--) {
    if (store.roleCode(indices[at]!) === ASSISTANT) {
      last = indices[at]!;
      break;
    }
  }
  // A settled history (see sentOf) names no roles: its last entry then.
  if (last === -1 && analysis.replay.context.length === 0 && indices.length > 0) last = indices[indices.length - 1]!;
  if (last === -1 || store.rare.size === 0) return {};
  let found: { at: number; model: string } | undefined;
  let window: { at: number; tokens: number } | undefined;
  for (const [i, rare] of store.rare) {
    if (i > last) continue;
    if (rare.model !== undefined && (found === undefined || i > found.at)) found = { at: i, model: rare.model };
    if (rare.contextWindow !== undefined && (window === undefined || i > window.at)) window = { at: i, tokens: rare.contextWindow };
  }
  const recorded = window !== undefined && (found === undefined || window.at >= found.at) ? window.tokens : undefined;
  return { ...(found === undefined ? {} : { model: found.model }), ...(recorded === undefined ? {} : { window: recorded }) };
}
