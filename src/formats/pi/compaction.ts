import { type CompactionInput, type FormatCompaction, type SummaryFacts, toolOutputSilent } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { plainText, toolUse } from '../tool-use.js';
import { positionOf } from '../../model/entry.js';
import { CALL_TYPES } from './canonical.js';
import { piEncoder } from './encode.js';
import { compactionTime } from './compaction-time.js';
import { piRecount } from './recount.js';

/**
 * pi's (and OpenClaw's) own compaction entry, appended as a child of the leaf as pi appends it:
 * pi replays its summary, then the path from `firstKeptEntryId` up to it. Its timestamp (see
 * compactionTime) makes pi read the usage the last assistant message recorded as from before the
 * compaction, so it does not compact again on the next prompt. No line already written changes.
 */
export const piCompaction: FormatCompaction = {
  canKeepFrom(analysis, at) {
    // Linear (v1) files name entries by position, which a compaction entry does not.
    const id = analysis.replay.context.at(at).id;
    return id !== undefined && positionOf(id) === undefined;
  },
  write(input) {
    return { skip: [], edits: [], records: [{ after: input.analysis.transcript.lines, value: compactionEntry(input) }] };
  },
  facts(value) {
    return piFacts(value);
  },
  silent: toolOutputSilent,
  recount(input) {
    return piRecount(input);
  },
};

function compactionEntry({ analysis, keepFrom, summary, read, tokensBefore }: CompactionInput): Json {
  const { context } = analysis.replay;
  const leaf = analysis.entries.at(analysis.tree.leaf);
  const firstKept = context.at(keepFrom).id!;
  const details = readAndModified(analysis, keepFrom, read);
  return {
    type: 'compaction',
    id: piEncoder.newId(`compaction:${leaf.id ?? ''}:${firstKept}`),
    parentId: leaf.id ?? null,
    timestamp: compactionTime(analysis, read),
    summary,
    firstKeptEntryId: firstKept,
    tokensBefore: Math.round(tokensBefore),
    details,
  };
}

/** pi's `details` of a compaction: the files read and changed before the cut, as its own compaction lists them. */
function readAndModified(analysis: CompactionInput['analysis'], keepFrom: number, read: (entry: number) => unknown): { readFiles: string[]; modifiedFiles: string[] } {
  const readFiles = new Set<string>();
  const modifiedFiles = new Set<string>();
  const { context } = analysis.replay;
  for (let at = 0; at < keepFrom; at++) {
    if (!analysis.entries.hasCalls(context.indices[at]!)) continue;
    for (const call of piFacts(read(context.indices[at]!)).calls) {
      if (call.path === undefined) continue;
      if (/^(edit|write)$/i.test(call.name)) modifiedFiles.add(call.path);
      else if (/^read$/i.test(call.name)) readFiles.add(call.path);
    }
  }
  for (const path of modifiedFiles) readFiles.delete(path);
  return { readFiles: [...readFiles], modifiedFiles: [...modifiedFiles] };
}

function piFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value)) return facts;
  if (value.type === 'compaction' && typeof value.summary === 'string') facts.summary = value.summary;
  const message = isObject(value.message) ? value.message : undefined;
  if (value.type !== 'message' || message === undefined) return facts;
  if (message.role === 'user') facts.prompt = plainText(message.content);
  else if (message.role === 'bashExecution' && typeof message.command === 'string') facts.calls.push({ name: 'bash', command: message.command });
  else if (message.role === 'assistant' && Array.isArray(message.content)) {
    facts.answer = plainText(message.content);
    for (const block of message.content) {
      if (isObject(block) && CALL_TYPES.has(String(block.type))) facts.calls.push(toolUse(block.name, block.arguments ?? block.input));
    }
  }
  return facts;
}
