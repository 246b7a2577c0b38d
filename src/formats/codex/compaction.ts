import { type CompactionInput, type CompactionRecords, type FormatCompaction, type SummaryFacts, type ToolUse, toolOutputSilent } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { plainText, toolUse } from '../tool-use.js';
import { codexRecount } from './recount.js';

/** How the summary item opens, so the model reads it as a hand-over rather than a request. */
const SUMMARY_PREFIX = 'The conversation before this point was compacted; here is a summary of it. Continue the work from it.';

/** Files an apply_patch input names (`*** Update File: path`). */
const PATCHED_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

/**
 * Codex's own compaction: a `compacted` line whose `replacement_history` is the history Codex
 * resumes with instead of everything before it (codex-rs replays `RolloutItem::Compacted` so), then
 * the `context_compacted` event it writes after one. The history is what Codex's own compaction
 * builds: the initial context (the developer and contextual messages before the cut, copied as
 * they are) and the summary as a user message. Written just before the first kept line, so every
 * item from there on follows it unchanged; encrypted reasoning and remote compaction items before
 * the cut go whole with the rest.
 */
export const codexCompaction: FormatCompaction = {
  canKeepFrom() {
    return true;
  },
  write(input) {
    return write(input);
  },
  facts(value) {
    return codexFacts(value);
  },
  silent: toolOutputSilent,
  recount(input) {
    return codexRecount(input);
  },
};

function write({ analysis, keepFrom, summary, read, fallbackTime }: CompactionInput): CompactionRecords {
  const { context } = analysis.replay;
  const initial: unknown[] = [];
  for (let at = 0; at < keepFrom; at++) {
    const entry = context.at(at);
    if (entry.kind !== 'message' || entry.role !== 'other') continue;
    const value = read(context.indices[at]!);
    if (isObject(value) && isObject(value.payload)) initial.push(value.payload);
  }
  const kept = read(context.indices[keepFrom]!);
  const timestamp = isObject(kept) && typeof kept.timestamp === 'string' ? kept.timestamp : fallbackTime.toISOString();
  const message = `${SUMMARY_PREFIX}\n\n${summary}`;
  const history = [...initial, { type: 'message', role: 'user', content: [{ type: 'input_text', text: message }] }];
  const line = analysis.entries.line(context.indices[keepFrom]!) - 1;
  return {
    skip: [],
    edits: [],
    records: [
      { after: line, value: { timestamp, type: 'compacted', payload: { message, replacement_history: history } } },
      { after: line, value: { timestamp, type: 'event_msg', payload: { type: 'context_compacted' } } },
    ],
  };
}

function codexFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value) || !isObject(value.payload)) return facts;
  const item: Json = value.payload;
  if (value.type === 'compacted' && typeof item.message === 'string') facts.summary = item.message;
  if (value.type !== 'response_item') return facts;
  if (item.type === 'message' && item.role === 'user') facts.prompt = plainText(item.content);
  else if (item.type === 'message' && item.role === 'assistant') facts.answer = plainText(item.content);
  else if (item.type === 'function_call') facts.calls.push(toolUse(item.name, item.arguments));
  else if (item.type === 'local_shell_call' && isObject(item.action)) facts.calls.push(toolUse('shell', item.action));
  else if (item.type === 'custom_tool_call' && typeof item.input === 'string') facts.calls.push(...patchedFiles(item.name, item.input));
  return facts;
}

/** A free-form call (apply_patch): one use per file its patch names. */
function patchedFiles(name: unknown, input: string): ToolUse[] {
  const tool = typeof name === 'string' ? name : '';
  const uses = [...input.matchAll(PATCHED_FILE)].map((match) => ({ name: 'apply_patch', path: match[1]!.trim() }));
  return uses.length > 0 ? uses : [{ name: tool }];
}
