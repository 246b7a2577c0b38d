import type { Analysis } from '../../model/analysis.js';
import type { CompactionInput, CompactionRecords, FormatCompaction, SummaryFacts } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { toolUse } from '../tool-use.js';
import { geminiCliEncoder } from './encode.js';
import { contentText, isIgnoredUserText, recordKind } from './records.js';

/** What Gemini CLI's own compression has the model answer its summary with. */
const ACK = 'Got it. Thanks for the additional context!';

/** The log as the client replays it: each message's winning copy in the order of first places. */
interface Log {
  /** Entry of the winning copy, in replay order. */
  entries: number[];
  /** Line of each replayed message's first copy. */
  firstLines: number[];
  ids: string[];
  /** Every line that holds a copy of a message, by id. */
  copies: Map<string, number[]>;
  /** Rewinds: line and the id they name. */
  rewinds: Array<{ line: number; id: string }>;
  /** A `$set` of the whole message list: the log is then not one we cut. */
  hasLists: boolean;
}

const logs = new WeakMap<Analysis, Log>();

/**
 * Gemini CLI keeps no compaction record and its resume restores the whole log (GC #20803), so the
 * old records give way: every message line before the first kept one (and every copy of those
 * messages, and the rewinds among them) goes, and one summary turn, with the acknowledgement
 * Gemini CLI's own compression writes, takes their place. The client replays its log by message
 * id (loadConversationRecord), which our model does not list as a path: the positions here are
 * the messages it replays, in its order.
 */
export const geminiCliCompaction: FormatCompaction = {
  replayed(analysis, read) {
    return logOf(analysis, read).entries;
  },
  canKeepFrom(analysis, at, read) {
    if (read === undefined) return false;
    const log = logOf(analysis, read);
    if (log.hasLists || at <= 0 || at >= log.entries.length) return false;
    const value = read(log.entries[at]!);
    if (!isPrompt(value)) return false;
    // A later rewind naming a message that goes would take back the whole history.
    const kept = new Set(log.ids.slice(at));
    return log.rewinds.every(({ line, id }) => line < log.firstLines[at]! || kept.has(id));
  },
  write(input) {
    return write(input);
  },
  facts(value) {
    return geminiFacts(value);
  },
};

function logOf(analysis: Analysis, read: (entry: number) => unknown): Log {
  let log = logs.get(analysis);
  if (log !== undefined) return log;
  const { entries } = analysis;
  const order: string[] = [];
  const winner = new Map<string, number>();
  const first = new Map<string, number>();
  const copies = new Map<string, number[]>();
  const rewinds: Log['rewinds'] = [];
  let hasLists = false;
  for (let i = 0; i < entries.length; i++) {
    const value = read(i);
    const kind = recordKind(value);
    const line = entries.line(i);
    if (kind === 'message') {
      const id = (value as Json).id as string;
      if (!winner.has(id)) {
        order.push(id);
        first.set(id, line);
      }
      winner.set(id, i);
      copies.set(id, [...(copies.get(id) ?? []), line]);
    } else if (kind === 'rewind') {
      const id = (value as Json).$rewindTo as string;
      rewinds.push({ line, id });
      const from = order.indexOf(id);
      for (const gone of from === -1 ? order : order.slice(from)) {
        winner.delete(gone);
        first.delete(gone);
      }
      order.length = from === -1 ? 0 : from;
    } else if (kind === 'patch' && Array.isArray(((value as Json).$set as Json).messages)) hasLists = true;
  }
  log = { entries: order.map((id) => winner.get(id)!), firstLines: order.map((id) => first.get(id)!), ids: order, copies, rewinds, hasLists };
  logs.set(analysis, log);
  return log;
}

function write({ analysis, keepFrom, summary, read }: CompactionInput): CompactionRecords {
  const log = logOf(analysis, read);
  const cutLine = log.firstLines[keepFrom]!;
  const skip = new Set<number>();
  for (const id of log.ids.slice(0, keepFrom)) for (const line of log.copies.get(id) ?? []) skip.add(line);
  // Messages taken back before the cut, and the rewinds that took them back, go too.
  const replayed = new Set(log.ids);
  for (const [id, lines] of log.copies) if (!replayed.has(id)) for (const line of lines) if (line < cutLine) skip.add(line);
  for (const { line } of log.rewinds) if (line < cutLine) skip.add(line);
  const kept = read(log.entries[keepFrom]!) as Json;
  const timestamp = typeof kept.timestamp === 'string' ? kept.timestamp : new Date().toISOString();
  const seed = `compaction:${String(kept.id)}`;
  return {
    skip: [...skip].sort((a, b) => a - b),
    edits: [],
    records: [
      { after: cutLine - 1, value: { id: geminiCliEncoder.newId(`${seed}:summary`), timestamp, type: 'user', content: [{ text: summary }] } },
      { after: cutLine - 1, value: { id: geminiCliEncoder.newId(`${seed}:ack`), timestamp, type: 'gemini', content: ACK, thoughts: [] } },
    ],
  };
}

function isPrompt(value: unknown): boolean {
  return isObject(value) && value.type === 'user' && !isIgnoredUserText(contentText(value.content)) && !contentText(value.content).startsWith('[functionResponse]');
}

function geminiFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value)) return facts;
  if (value.type === 'user' && isPrompt(value)) facts.prompt = contentText(value.content);
  else if (value.type === 'gemini') {
    facts.answer = contentText(value.content);
    if (Array.isArray(value.toolCalls)) for (const call of value.toolCalls) if (isObject(call)) facts.calls.push(toolUse(call.name, call.args));
  }
  return facts;
}
