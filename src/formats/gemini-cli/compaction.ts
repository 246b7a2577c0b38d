import type { Analysis } from '../../model/analysis.js';
import type { CompactionInput, CompactionRecords, FormatCompaction, SummaryFacts } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { valueAt } from '../json-pointer.js';
import { toolUse } from '../tool-use.js';
import { geminiCliEncoder } from './encode.js';
import { compactionSummaryId, contentText, isCompactionSummary, isIgnoredUserText, recordKind } from './records.js';

/** What Gemini CLI's own compression has the model answer its summary with. */
const ACK = 'Got it. Thanks for the additional context!';

/** The log as the client replays it: each message's winning copy in the order of first places. */
interface Log {
  /** Entry of the winning copy, in replay order (a `$set.messages` line's for the messages it lists). */
  entries: number[];
  /** Where in its line the winning copy sits ('' for a line of its own). */
  pointers: string[];
  /** Line of each replayed message's first copy. */
  firstLines: number[];
  ids: string[];
  /** Every line that holds a copy of a message, by id. */
  copies: Map<string, number[]>;
  /** Rewinds: line and the id they name. */
  rewinds: Array<{ line: number; id: string }>;
  /** Lines that set the whole message list (`$set.messages`), with the pointers of the messages they list. */
  lists: Array<{ line: number; pointers: string[] }>;
  /** A list that adds to the log (a legacy metadata line, a checkpoint): the log is then not one we cut. */
  hasOtherLists: boolean;
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
    if (log.hasOtherLists || at <= 0 || at >= log.entries.length) return false;
    // A list set after the cut would bring back what goes.
    if (log.lists.some(({ line }) => line >= log.firstLines[at]!)) return false;
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
  factsAt(analysis, at, read) {
    return geminiFacts(messageAt(logOf(analysis, read), at, read));
  },
};

function logOf(analysis: Analysis, read: (entry: number) => unknown): Log {
  let log = logs.get(analysis);
  if (log !== undefined) return log;
  const { entries } = analysis;
  const order: string[] = [];
  const winner = new Map<string, { entry: number; pointer: string }>();
  const first = new Map<string, number>();
  const copies = new Map<string, number[]>();
  const rewinds: Log['rewinds'] = [];
  const lists: Log['lists'] = [];
  let hasOtherLists = false;
  const set = (id: string, entry: number, pointer: string, line: number) => {
    if (!winner.has(id)) {
      order.push(id);
      first.set(id, line);
    }
    winner.set(id, { entry, pointer });
    copies.set(id, [...(copies.get(id) ?? []), line]);
  };
  const clearFrom = (from: number) => {
    for (const gone of order.slice(from)) {
      winner.delete(gone);
      first.delete(gone);
    }
    order.length = from;
  };
  for (let i = 0; i < entries.length; i++) {
    const value = read(i);
    const kind = recordKind(value);
    const line = entries.line(i);
    if (kind === 'message') set((value as Json).id as string, i, '', line);
    else if (kind === 'rewind') {
      const id = (value as Json).$rewindTo as string;
      rewinds.push({ line, id });
      const from = order.indexOf(id);
      clearFrom(from === -1 ? 0 : from);
    } else if (kind === 'patch' && Array.isArray(((value as Json).$set as Json).messages)) {
      // The list replaces the log (loadConversationRecord): its messages are set in their order.
      clearFrom(0);
      const pointers: string[] = [];
      (((value as Json).$set as Json).messages as unknown[]).forEach((message, k) => {
        if (!isObject(message) || typeof message.id !== 'string') return;
        pointers.push(`/$set/messages/${k}`);
        set(message.id, i, `/$set/messages/${k}`, line);
      });
      lists.push({ line, pointers });
    } else if (kind === 'checkpoint' || (kind === 'metadata' && Array.isArray((value as Json).messages))) hasOtherLists = true;
  }
  const won = order.map((id) => winner.get(id)!);
  log = { entries: won.map((copy) => copy.entry), pointers: won.map((copy) => copy.pointer), firstLines: order.map((id) => first.get(id)!), ids: order, copies, rewinds, lists, hasOtherLists };
  logs.set(analysis, log);
  return log;
}

function write({ analysis, keepFrom, summary, read, fallbackTime }: CompactionInput): CompactionRecords {
  const log = logOf(analysis, read);
  const cutLine = log.firstLines[keepFrom]!;
  const skip = new Set<number>();
  for (const id of log.ids.slice(0, keepFrom)) for (const line of log.copies.get(id) ?? []) skip.add(line);
  // Messages taken back before the cut, and the rewinds that took them back, go too.
  const replayed = new Set(log.ids);
  for (const [id, lines] of log.copies) if (!replayed.has(id)) for (const line of lines) if (line < cutLine) skip.add(line);
  for (const { line } of log.rewinds) if (line < cutLine) skip.add(line);
  // A list before the cut is kept as a line (its other members stay), emptied: what it listed goes with the rest.
  const edits: CompactionRecords['edits'] = [];
  for (const { line, pointers } of log.lists) {
    skip.delete(line);
    if (pointers.length > 0) edits.push({ line, edit: { kind: 'drop-parts', pointers } });
  }
  const kept = read(log.entries[keepFrom]!) as Json;
  // Stamped with the latest message's time: the usage recorded up to then counted what goes (see replay.ts).
  const timestamp = latestTimestamp(log, read) ?? fallbackTime.toISOString();
  const seed = `compaction:${String(kept.id)}`;
  return {
    skip: [...skip].sort((a, b) => a - b),
    edits,
    records: [
      { after: cutLine - 1, value: { id: geminiCliEncoder.newId(compactionSummaryId(String(kept.id))), timestamp, type: 'user', content: [{ text: summary }] } },
      { after: cutLine - 1, value: { id: geminiCliEncoder.newId(`${seed}:ack`), timestamp, type: 'gemini', content: ACK, thoughts: [] } },
    ],
  };
}

/** The last line read for messageAt: the messages a list sets share one line, read once for all of them. */
let lastRead: { read: (entry: number) => unknown; entry: number; value: unknown } | undefined;

/** The message at position `at`: its line, or its place in the list its line sets. */
function messageAt(log: Log, at: number, read: (entry: number) => unknown): unknown {
  const entry = log.entries[at]!;
  if (lastRead?.read !== read || lastRead.entry !== entry) lastRead = { read, entry, value: read(entry) };
  const pointer = log.pointers[at]!;
  return pointer === '' ? lastRead.value : valueAt(lastRead.value, pointer);
}

function latestTimestamp(log: Log, read: (entry: number) => unknown): string | undefined {
  let latest: string | undefined;
  log.entries.forEach((_entry, at) => {
    const message = messageAt(log, at, read);
    const stamp = isObject(message) && typeof message.timestamp === 'string' ? message.timestamp : undefined;
    if (stamp !== undefined && (latest === undefined || stamp > latest)) latest = stamp;
  });
  return latest;
}

function isPrompt(value: unknown): boolean {
  return isObject(value) && value.type === 'user' && !isIgnoredUserText(contentText(value.content)) && !contentText(value.content).startsWith('[functionResponse]');
}

function geminiFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value)) return facts;
  if (isCompactionSummary(value)) facts.summary = contentText(value.content);
  else if (value.type === 'user' && isPrompt(value)) facts.prompt = contentText(value.content);
  else if (value.type === 'gemini') {
    facts.answer = contentText(value.content);
    if (Array.isArray(value.toolCalls)) for (const call of value.toolCalls) if (isObject(call)) facts.calls.push(toolUse(call.name, call.args));
  }
  return facts;
}
