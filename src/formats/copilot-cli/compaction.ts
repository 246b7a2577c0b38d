import type { CompactionInput, CompactionRecords, FormatCompaction, SummaryFacts } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { toolUse } from '../tool-use.js';
import { copilotCliEncoder } from './encode.js';
import { ASSISTANT_MESSAGE, COMPACTION_COMPLETE, COMPACTION_START, USER_MESSAGE } from './events.js';

/**
 * Copilot CLI's own compaction events, as its background compaction writes them: a
 * `session.compaction_start` just before the first kept event, and the successful
 * `session.compaction_complete` carrying the summary appended at the end. On resume the client
 * replays the summary in place of everything before the start and keeps every event from the start
 * on. `session.start` and every event already written stay as they were; the completion's
 * `postCompactionTokens` is the new size, estimated, for the client to read in place of the usage
 * recorded before it.
 */
export const copilotCliCompaction: FormatCompaction = {
  canKeepFrom() {
    return true;
  },
  write(input) {
    return write(input);
  },
  facts(value) {
    return copilotFacts(value);
  },
};

function write({ analysis, keepFrom, summary, read, tokensBefore, fallbackTime }: CompactionInput): CompactionRecords {
  const { entries } = analysis;
  const { context } = analysis.replay;
  const keptIndex = context.indices[keepFrom]!;
  const keptLine = entries.line(keptIndex);
  const kept = read(keptIndex) as Json;
  const lastIndex = entries.length - 1;
  const last = read(lastIndex);
  const before = keptIndex > 0 ? read(keptIndex - 1) : undefined;
  const startId = copilotCliEncoder.newId(`compaction-start:${String(kept.id)}`);
  const timestampOf = (value: unknown) => (isObject(value) && typeof value.timestamp === 'string' ? value.timestamp : fallbackTime.toISOString());
  let keptBytes = summary.length;
  for (let at = keepFrom; at < context.length; at++) keptBytes += entries.byteLength[context.indices[at]!]!;
  const start = { type: COMPACTION_START, data: { trigger: 'manual', conversationTokens: Math.round(tokensBefore) }, id: startId, timestamp: timestampOf(kept), parentId: isObject(before) && typeof before.id === 'string' ? before.id : null };
  const complete = {
    type: COMPACTION_COMPLETE,
    data: { success: true, trigger: 'manual', preCompactionTokens: Math.round(tokensBefore), postCompactionTokens: Math.ceil(keptBytes / 4), summaryContent: summary },
    id: copilotCliEncoder.newId(`compaction-complete:${String(kept.id)}`),
    timestamp: timestampOf(last),
    parentId: isObject(last) && typeof last.id === 'string' ? last.id : startId,
  };
  return {
    skip: [],
    edits: [],
    records: [
      { after: keptLine - 1, value: start },
      { after: analysis.transcript.lines, value: complete },
    ],
  };
}

function copilotFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value) || !isObject(value.data)) return facts;
  const data = value.data;
  if (value.type === COMPACTION_COMPLETE && typeof data.summaryContent === 'string') facts.summary = data.summaryContent;
  else if (value.type === USER_MESSAGE && typeof data.content === 'string') facts.prompt = data.content;
  else if (value.type === ASSISTANT_MESSAGE) {
    if (typeof data.content === 'string') facts.answer = data.content;
    if (Array.isArray(data.toolRequests)) for (const call of data.toolRequests) if (isObject(call)) facts.calls.push(toolUse(call.name, call.arguments));
  }
  return facts;
}
