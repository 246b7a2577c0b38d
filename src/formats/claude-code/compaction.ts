import type { Analysis } from '../../model/analysis.js';
import { type CompactionInput, type CompactionRecords, type FormatCompaction, type SummaryFacts, toolOutputSilent } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { plainText, toolUse } from '../tool-use.js';
import { claudeCodeEncoder } from './encode.js';

/** How Claude Code opens the summary line of its own compactions (2.1.x). */
const SUMMARY_OPENING = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/** The envelope fields the new lines borrow from the first kept line, in Claude Code's order. */
const ENVELOPE = ['userType', 'entrypoint', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug'];

/**
 * Lines without a place in the conversation that Claude Code needs on resume. It does not read
 * what comes before the last compact boundary of a large file, so the last of each kind that sits
 * before the boundary, with none after it, moves to just after the summary.
 */
const RESUME_RECORDS = new Set(['permission-mode', 'last-prompt', 'custom-title', 'ai-title', 'tag', 'agent-name', 'agent-setting', 'mode']);

const lineOrder = new WeakMap<Analysis, Int32Array>();

/**
 * Claude Code's own compaction: a `compact_boundary` line that starts the chain again
 * (`parentUuid: null`, `logicalParentUuid` naming the last entry before it) and the summary line
 * hung on it (`isCompactSummary`), both written just before the first kept line, which is hung on
 * the summary. Claude Code walks back from the leaf and stops at the boundary, so the request is
 * the summary and every kept entry as written.
 */
export const claudeCodeCompaction: FormatCompaction = {
  canKeepFrom(analysis, at) {
    // Every kept entry must come after the boundary in the file: Claude Code skips what is before it.
    return firstLineFrom(analysis)[at] === analysis.entries.line(analysis.replay.context.indices[at]!);
  },
  write(input) {
    return write(input);
  },
  facts(value) {
    return claudeCodeFacts(value);
  },
  // A user line of tool results is no prompt (Claude Code writes its compact summary as text only).
  silent: toolOutputSilent,
};

/** For each replay position, the first line any entry from there on sits on. */
function firstLineFrom(analysis: Analysis): Int32Array {
  let lines = lineOrder.get(analysis);
  if (lines !== undefined) return lines;
  const { indices } = analysis.replay.context;
  lines = new Int32Array(indices.length);
  let first = Number.MAX_SAFE_INTEGER;
  for (let at = indices.length - 1; at >= 0; at--) lines[at] = first = Math.min(first, analysis.entries.line(indices[at]!));
  lineOrder.set(analysis, lines);
  return lines;
}

function write({ analysis, keepFrom, summary, read, tokensBefore, fallbackTime }: CompactionInput): CompactionRecords {
  const { entries } = analysis;
  const keptIndex = analysis.replay.context.indices[keepFrom]!;
  const kept = read(keptIndex) as Json;
  const keptLine = entries.line(keptIndex);
  const keptId = entries.at(keptIndex).id!;
  const previous = analysis.replay.context.at(keepFrom - 1).id;
  const boundaryId = claudeCodeEncoder.newId(`compact-boundary:${keptId}`);
  const summaryId = claudeCodeEncoder.newId(`compact-summary:${keptId}`);
  const timestamp = typeof kept.timestamp === 'string' ? kept.timestamp : fallbackTime.toISOString();
  const envelope: Json = {};
  for (const field of ENVELOPE) if (kept[field] !== undefined) envelope[field] = kept[field];
  const boundary: Json = {
    parentUuid: null,
    ...(previous === undefined ? {} : { logicalParentUuid: previous }),
    isSidechain: false,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp,
    uuid: boundaryId,
    level: 'info',
    compactMetadata: { trigger: 'manual', preTokens: Math.round(tokensBefore), ...preserved(analysis, keepFrom, summaryId) },
    ...envelope,
  };
  const summaryLine: Json = {
    parentUuid: boundaryId,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: `${SUMMARY_OPENING}\n\n${summary}` },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: summaryId,
    timestamp,
    ...envelope,
  };
  const records: Required<CompactionRecords> = {
    skip: [],
    edits: [{ line: keptLine, edit: { kind: 'set-parent', parentId: summaryId } }],
    records: [
      { after: keptLine - 1, value: boundary },
      { after: keptLine - 1, value: summaryLine },
    ],
    moves: [],
  };
  const leafId = entries.at(analysis.tree.leaf).id;
  for (const { line, value } of resumeRecordsBefore(analysis, keptLine, read)) {
    // Claude Code resumes from the leaf a `last-prompt` names: one naming an entry before the boundary would resume that old branch, so a copy names the replayed leaf.
    if (value.type === 'last-prompt' && leafId !== undefined && value.leafUuid !== undefined && value.leafUuid !== leafId) records.records.push({ after: keptLine - 1, value: { ...value, leafUuid: leafId } });
    else records.moves.push({ after: keptLine - 1, line });
  }
  return records;
}

/**
 * The kept messages as Claude Code's own partial compaction lists them (`preservedSegment`,
 * `preservedMessages`, anchored on the summary), in the order they are sent. On resume Claude Code
 * 2.1.328 relinks them after the summary in that order and sets their recorded usage to zero
 * (the minified `w_r`): its count of the context then starts at the boundary, as after its own
 * compaction, instead of at the last kept response's usage, which counted the history summarised.
 * No recorded figure in the file is changed.
 */
function preserved(analysis: Analysis, keepFrom: number, anchorUuid: string): Json {
  const { context } = analysis.replay;
  const { entries } = analysis;
  const uuids: string[] = [];
  const seen = new Set<string>();
  for (let at = keepFrom; at < context.length; at++) {
    const index = context.indices[at]!;
    const id = entries.at(index).id;
    if (id === undefined || seen.has(id) || entries.kind(index) !== 'message') continue;
    seen.add(id);
    uuids.push(id);
  }
  const tail = uuids.at(-1);
  // Claude Code resumes from the newest line: it must lead back to the relinked chain's end, or the resumed chain would stop short of it.
  if (tail === undefined || lastMessageOnPath(analysis) !== tail) return {};
  return { preservedSegment: { headUuid: uuids[0]!, anchorUuid, tailUuid: tail }, preservedMessages: { anchorUuid, uuids, allUuids: uuids } };
}

function lastMessageOnPath(analysis: Analysis): string | undefined {
  const { entries } = analysis;
  const path = analysis.tree.replayPath;
  for (let n = path.length - 1; n >= 0; n--) if (entries.kind(path[n]!) === 'message') return entries.at(path[n]!).id;
  return undefined;
}

/** Lines of RESUME_RECORDS whose last copy is before `line`, with their parsed records. */
function resumeRecordsBefore(analysis: Analysis, line: number, read: (entry: number) => unknown): Array<{ line: number; value: Json }> {
  const { entries } = analysis;
  const last = new Map<string, { line: number; value: Json }>();
  for (let i = 0; i < entries.length; i++) {
    if (entries.kind(i) !== 'unknown') continue;
    const value = read(i);
    if (isObject(value) && typeof value.type === 'string' && RESUME_RECORDS.has(value.type)) last.set(value.type, { line: entries.line(i), value });
  }
  return [...last.values()].filter((record) => record.line < line).sort((a, b) => a.line - b.line);
}

function claudeCodeFacts(value: unknown): SummaryFacts {
  const facts: SummaryFacts = { calls: [] };
  if (!isObject(value) || !isObject(value.message)) return facts;
  const content = value.message.content;
  if (value.type === 'user') {
    if (value.isCompactSummary === true) facts.summary = plainText(content);
    else if (value.isMeta !== true && !(Array.isArray(content) && content.some((block) => isObject(block) && block.type === 'tool_result'))) facts.prompt = plainText(content);
  } else if (value.type === 'assistant' && Array.isArray(content)) {
    facts.answer = plainText(content);
    for (const block of content) if (isObject(block) && block.type === 'tool_use') facts.calls.push(toolUse(block.name, block.input));
  }
  return facts;
}
