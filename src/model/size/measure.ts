import type { Analysis } from '../analysis.js';
import { ASSISTANT } from '../entry-bits.js';
import type { EntryStore } from '../entry-store.js';
import { entrySize, SIZE_KINDS, type SizeParts } from './facts.js';
import { documentTokens, imageTokens, sessionOverhead, textTokens, TOKEN_ESTIMATOR, type TokenEstimator } from './estimate.js';
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
 * once per replayed context: the size rules, explain and slim's planner share it.
 */
export function measureRequest(analysis: Analysis, estimator: TokenEstimator = TOKEN_ESTIMATOR): RequestSize {
  const context = analysis.replay.context;
  if (estimator === TOKEN_ESTIMATOR) {
    const known = measured.get(context);
    if (known !== undefined) return known;
  }
  const size = measure(analysis, estimator);
  if (estimator === TOKEN_ESTIMATOR) measured.set(context, size);
  return size;
}

function emptyShares(): Record<SizeKind, SizeShare> {
  const shares = {} as Record<SizeKind, SizeShare>;
  for (const kind of SIZE_KINDS) shares[kind] = { bytes: 0, tokens: 0, count: 0 };
  return shares;
}

function measure(analysis: Analysis, estimator: TokenEstimator): RequestSize {
  const store = analysis.entries;
  const context = analysis.replay.context;
  const indices = context.indices;
  const messageIndex = context.messageIndex;
  const blockIndex = context.blockIndex;
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
  for (let at = 0; at < indices.length; at++) {
    const i = indices[at]!;
    const message = messageIndex[at]!;
    if (message === -1) continue;
    const size = entrySize(store, i);
    const kindTokens = tokensByKind(size.parts, estimator);
    if (message !== lastMessage) {
      lastMessage = message;
      messages += 1;
      callsInMessage = 0;
      bytes += MESSAGE_BYTES;
      // Framing is no kind of content: the breakdown shows it as 'other'.
      kindTokens.other = (kindTokens.other ?? 0) + estimator.perMessage;
    }
    const afterAnchor = anchor === undefined || at >= anchor.from;
    const calls = store.hasCalls(i) ? store.callEnd(i) - store.callStart(i) : 0;
    if (calls > 0) {
      for (let k = store.callStart(i); k < store.callEnd(i); k++) if (store.callId[k] !== -1) callNames.set(store.callId[k]!, store.callName[k]!);
      callsInMessage += calls;
      if (mostToolCalls === undefined || callsInMessage > mostToolCalls.count) mostToolCalls = { entry: i, messageIndex: message, count: callsInMessage };
    }
    const rare = store.rare.size === 0 ? undefined : store.rare.get(i);
    for (const image of rare?.images ?? []) {
      const item: MeasuredMedia = {
        entry: i,
        pointer: image.pointer,
        messageIndex: message,
        blockIndex: blockIndex[at]! + image.blockIndex,
        kind: 'image',
        base64Length: image.base64Length ?? Math.ceil(image.bytes / 3) * 4,
        bytes: image.bytes,
        inToolResult: image.inToolResult === true,
      };
      const mediaType = image.declared ?? image.actual;
      if (mediaType !== undefined) item.mediaType = mediaType;
      if (image.width !== undefined && image.height !== undefined) Object.assign(item, { width: image.width, height: image.height });
      media.push(item);
      kindTokens.image = (kindTokens.image ?? 0) + imageTokens(image.width, image.height);
    }
    for (const document of rare?.documents ?? []) {
      const item: MeasuredMedia = {
        entry: i,
        pointer: document.pointer,
        messageIndex: message,
        blockIndex: blockIndex[at]! + document.blockIndex,
        kind: 'document',
        base64Length: document.base64Length,
        bytes: document.bytes,
        inToolResult: document.inToolResult === true,
      };
      if (document.mediaType !== undefined) item.mediaType = document.mediaType;
      if (document.pages !== undefined) item.pages = document.pages;
      media.push(item);
      kindTokens.document = (kindTokens.document ?? 0) + documentTokens(document.pages, document.bytes);
    }
    let tokens = 0;
    for (const kind in kindTokens) tokens += kindTokens[kind as SizeKind]!;
    if (afterAnchor) estimated += tokens;
    bytes += size.bytes;
    const tool = toolOf(store, i, size.parts, callNames);
    addShares(byKind, size.parts, kindTokens);
    if (tool !== undefined) {
      const share = byTool.get(tool) ?? { bytes: 0, tokens: 0, count: 0 };
      share.bytes += (size.parts.toolResult ?? 0) + (size.parts.toolCall ?? 0);
      share.tokens += tokens;
      share.count += 1;
      byTool.set(tool, share);
    }
    if (size.kind !== undefined) pushLargest(largest, { entry: i, line: store.line(i), kind: size.kind, bytes: size.bytes, tokens, ...(tool === undefined ? {} : { tool }) });
    const longest = rare?.longString;
    if (longest !== undefined && (longestString === undefined || longest.length > longestString.length)) longestString = { entry: i, ...longest };
  }
  const overhead = anchor === undefined ? sessionOverhead(analysis.transcript.format) : 0;
  const base = anchor === undefined ? overhead : anchor.tokens;
  const tokens = Math.ceil(base + estimated);
  const size: RequestSize = {
    tokens: {
      tokens,
      high: Math.ceil(base + estimated * (1 + estimator.margin)),
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
  const model = modelOf(analysis);
  if (model !== undefined) size.model = model;
  if (longestString !== undefined) size.longestString = longestString;
  if (mostToolCalls !== undefined) size.mostToolCalls = mostToolCalls;
  return size;
}

function tokensByKind(parts: SizeParts, estimator: TokenEstimator): SizeParts {
  const tokens: SizeParts = {};
  for (const kind in parts) tokens[kind as SizeKind] = textTokens(kind as SizeKind, parts[kind as SizeKind]!, estimator);
  return tokens;
}

function addShares(byKind: Record<SizeKind, SizeShare>, parts: SizeParts, tokens: SizeParts): void {
  for (const kind in tokens) {
    const share = byKind[kind as SizeKind];
    share.bytes += parts[kind as SizeKind] ?? 0;
    share.tokens += tokens[kind as SizeKind]!;
    if (parts[kind as SizeKind] !== undefined) share.count += 1;
  }
}

/** The tool an entry's calls or results belong to: the result's own name, else its call's. */
function toolOf(store: EntryStore, i: number, parts: SizeParts, callNames: Map<number, number>): string | undefined {
  if (parts.toolResult !== undefined && store.hasResults(i)) {
    const k = store.resultStart(i);
    const name = store.resultName[k]!;
    if (name !== 0) return store.strings.text(name - 1);
    const call = callNames.get(store.resultCallId[k]!);
    if (call !== undefined && call !== 0) return store.strings.text(call - 1);
    return undefined;
  }
  if (parts.toolCall !== undefined && store.hasCalls(i)) {
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

/**
 * The last usage recorded on the replayed path, and the first context position it does not
 * count: the response that recorded it was not part of its own request, so the estimate starts
 * at that response (the assistant entries just before the usage, or the entry itself). A usage
 * before the latest compaction counted history no longer sent, and is no anchor.
 */
function findAnchor(analysis: Analysis): { entry: number; tokens: number; from: number } | undefined {
  const store = analysis.entries;
  if (store.usage === undefined) return undefined;
  const context = analysis.replay.context;
  const indices = context.indices;
  const path = analysis.replayed;
  const firstSent = indices.length === 0 ? -1 : indices[0]!;
  const compacted = firstSent !== -1 && store.kind(firstSent) === 'compaction';
  for (let n = path.length - 1; n >= 0; n--) {
    const i = path[n]!;
    const tokens = store.usageOf(i);
    if (tokens === undefined) continue;
    if (compacted && i < firstSent) return undefined;
    let from = lastPositionUpTo(indices, i);
    if (from === -1) return undefined;
    if (indices[from] !== i && store.roleCode(indices[from]!) !== ASSISTANT) from += 1;
    while (from > 0 && store.roleCode(indices[from - 1]!) === ASSISTANT && store.roleCode(indices[from]!) === ASSISTANT) from -= 1;
    return { entry: i, tokens, from };
  }
  return undefined;
}

/** The last position whose entry index is at most `entry` (indices ascend, but for results replayed beside their calls). */
function lastPositionUpTo(indices: Int32Array, entry: number): number {
  for (let at = indices.length - 1; at >= 0; at--) if (indices[at]! <= entry) return at;
  return -1;
}

/** The model of the last assistant turn sent: the last one named at or before it in the file (a model is noted where it changes). */
function modelOf(analysis: Analysis): string | undefined {
  const store = analysis.entries;
  const indices = analysis.replay.context.indices;
  let last = -1;
  for (let at = indices.length - 1; at >= 0; at--) {
    if (store.roleCode(indices[at]!) === ASSISTANT) {
      last = indices[at]!;
      break;
    }
  }
  if (last === -1 || store.rare.size === 0) return undefined;
  let found: { at: number; model: string } | undefined;
  for (const [i, rare] of store.rare) if (rare.model !== undefined && i <= last && (found === undefined || i > found.at)) found = { at: i, model: rare.model };
  return found?.model;
}
