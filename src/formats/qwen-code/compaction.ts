import type { CompactionInput, CompactionRecords, FormatCompaction, SummaryFacts } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { toolUse } from '../tool-use.js';
import { qwenEncoder } from './encode.js';

/** What Qwen Code's own compression has the model answer the summary with, so turns alternate. */
const ACK = 'Got it. Thanks for the additional context!';

/** Qwen Code's CompressionStatus.COMPRESSED. */
const COMPRESSED = 1;

/** The envelope fields the record borrows from the leaf it hangs on. */
const ENVELOPE = ['sessionId', 'cwd', 'version', 'gitBranch'];

/**
 * Qwen Code's own compression record (`chat_compression`), appended as a child of the leaf as
 * Qwen Code records one: on resume it takes `compressedHistory` in place of everything before it
 * (buildSessionHistoryFromConversation). The history is the summary, then every kept record's
 * message as Qwen Code would have appended it. Its `info.newTokenCount` is the size Qwen Code
 * reads on resume in place of the last recorded usage (getResumeTokenCounts), so it does not
 * compress again on the next prompt; the recorded usage of every kept record stays as it was.
 */
export const qwenCodeCompaction: FormatCompaction = {
  canKeepFrom() {
    return true;
  },
  write(input) {
    return write(input);
  },
  facts(value) {
    return qwenFacts(value);
  },
};

function write({ analysis, keepFrom, summary, read, tokensBefore, fallbackTime }: CompactionInput): CompactionRecords {
  const { context } = analysis.replay;
  const kept: Json[] = [];
  for (let at = keepFrom; at < context.length; at++) {
    const record = read(context.indices[at]!);
    if (!isObject(record) || !isObject(record.message)) continue;
    const message = structuredClone(record.message);
    const previous = kept.at(-1);
    // Qwen Code folds a message typed mid-turn into the user turn before it.
    if (record.subtype === 'mid_turn_user_message' && previous?.role === 'user' && Array.isArray(previous.parts)) {
      previous.parts = [...previous.parts, ...(Array.isArray(message.parts) ? message.parts : [])];
    } else kept.push(message);
  }
  const history: Json[] = [{ role: 'user', parts: [{ text: summary }] }];
  if (kept[0]?.role !== 'model') history.push({ role: 'model', parts: [{ text: ACK }] });
  history.push(...kept);
  const leaf = read(analysis.tree.leaf);
  const source: Json = isObject(leaf) ? leaf : {};
  const parent = analysis.entries.at(analysis.tree.leaf).id ?? null;
  const record: Json = {
    uuid: qwenEncoder.newId(`chat-compression:${parent ?? ''}:${context.at(keepFrom).id ?? ''}`),
    parentUuid: parent,
    timestamp: typeof source.timestamp === 'string' ? source.timestamp : fallbackTime.toISOString(),
    type: 'system',
    subtype: 'chat_compression',
  };
  for (const field of ENVELOPE) if (source[field] !== undefined) record[field] = source[field];
  record.systemPayload = {
    info: { originalTokenCount: Math.round(tokensBefore), newTokenCount: estimateTokens(history), compressionStatus: COMPRESSED, newTokenCountIsEstimated: true },
    compressedHistory: history,
  };
  return { skip: [], edits: [], records: [{ after: analysis.transcript.lines, value: record }] };
}

/** Tokens of a history as Qwen Code estimates text (ASCII at 4 characters a token, other characters 1.5 tokens each), over every string in it. */
function estimateTokens(value: unknown): number {
  let ascii = 0;
  let other = 0;
  const walk = (node: unknown): void => {
    if (typeof node === 'string') {
      for (let i = 0; i < node.length; i++) if (node.charCodeAt(i) < 128) ascii++;
      else other++;
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) Object.values(node).forEach(walk);
  };
  walk(value);
  return Math.ceil(ascii / 4 + other * 1.5);
}

function qwenFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value)) return facts;
  if (value.type === 'system' && value.subtype === 'chat_compression' && isObject(value.systemPayload) && Array.isArray(value.systemPayload.compressedHistory)) {
    const first: unknown = value.systemPayload.compressedHistory[0];
    if (isObject(first) && Array.isArray(first.parts)) facts.summary = textOf(first.parts);
    return facts;
  }
  const parts = isObject(value.message) && Array.isArray(value.message.parts) ? value.message.parts : undefined;
  if (parts === undefined) return facts;
  if (value.type === 'user') facts.prompt = textOf(parts);
  else if (value.type === 'assistant') {
    facts.answer = textOf(parts);
    for (const part of parts) if (isObject(part) && isObject(part.functionCall)) facts.calls.push(toolUse(part.functionCall.name, part.functionCall.args));
  }
  return facts;
}

/** The text parts, thoughts left out. */
function textOf(parts: unknown[]): string {
  return parts
    .filter((part): part is Json => isObject(part) && typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text as string)
    .join('\n');
}
