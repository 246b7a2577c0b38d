import { createHash } from 'node:crypto';
import { BRIDGE_TEXTS, inApplyOrder, type EntryEdit, type NewLine } from '../../model/edits.js';
import type { Encoder } from '../format.js';
import { fillBlankText, isObject, nonEmptyString, timestampOr, type Json } from '../json.js';
import { applySlimEdits } from '../slim-edits.js';
import { claudeCodeSlim } from './slim.js';
import { claudeCodeSpans } from './spans.js';

/** What a missing result says, so a person reading the session knows it was not the tool. */
const MISSING_RESULT_TEXT = 'No result: the tool call was interrupted; transcript-doctor added this error result so the session can continue.';

/** What Claude Code answers a turn nobody answered with, when it resumes. */
const NO_RESPONSE_TEXT = 'No response requested.';

/** What a blank prompt becomes: Claude Code has no placeholder of its own, so the one OpenClaw writes. */
const BLANK_USER_TEXT = '(continue)';

/** The fields every Claude Code conversation line repeats, in the order Claude Code writes them. */
const ENVELOPE = ['isSidechain', 'userType', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug', 'agentId'];

export const claudeCodeEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    const message = isObject(value.message) ? value.message : undefined;
    for (const edit of inApplyOrder(edits)) applyEdit(value, message, edit);
    applySlimEdits(value, edits, claudeCodeSlim);
  },
  spans: claudeCodeSpans,
  newId(seed) {
    const hex = createHash('sha256').update(seed).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  },
  create(line, source, at) {
    if (line.kind === 'header') throw new Error('Claude Code transcripts have no header line');
    return line.kind === 'bridge' ? bridge(line, isObject(source) ? source : {}, at) : missingResult(line, isObject(source) ? source : {}, at);
  },
};

function applyEdit(value: Json, message: Json | undefined, edit: EntryEdit): void {
  if (edit.kind === 'set-parent') {
    value.parentUuid = edit.parentId;
    return;
  }
  if (edit.kind === 'set-entry-id') {
    value.uuid = edit.id;
    return;
  }
  if (message === undefined) return;
  const block = 'block' in edit ? blockAt(message, edit.block) : 'pointer' in edit ? blockAt(message, blockIndexOf(edit.pointer)) : undefined;
  if (edit.kind === 'set-call-id' && block !== undefined) block.id = edit.id;
  else if (edit.kind === 'set-call-name' && block !== undefined) block.name = edit.name;
  else if (edit.kind === 'set-result-id' && block !== undefined) block.tool_use_id = edit.id;
  else if (edit.kind === 'drop-blocks' && Array.isArray(message.content)) {
    message.content = message.content.filter((_, i) => !edit.blocks.includes(i));
  } else if (edit.kind === 'results-first' && Array.isArray(message.content)) {
    const isResult = (block: unknown) => isObject(block) && block.type === 'tool_result';
    message.content = [...message.content.filter(isResult), ...message.content.filter((block) => !isResult(block))];
  } else if (edit.kind === 'fill-blank-user') {
    message.content = fillBlankText(message.content, BLANK_USER_TEXT);
  } else if (edit.kind === 'trim-final-text' && Array.isArray(message.content)) {
    const last: unknown = message.content.at(-1);
    if (isObject(last) && last.type === 'text' && typeof last.text === 'string') last.text = last.text.trimEnd();
  } else if (edit.kind === 'drop-signed-reasoning' && Array.isArray(message.content)) {
    message.content = message.content.filter((block) => !(isObject(block) && ((block.type === 'thinking' && nonEmptyString(block.signature) !== undefined) || block.type === 'redacted_thinking')));
  }
}

function blockAt(message: Json, index: number): Json | undefined {
  const block: unknown = Array.isArray(message.content) ? message.content[index] : undefined;
  return isObject(block) ? block : undefined;
}

/** The block a `/message/content/<n>` pointer names. */
function blockIndexOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/**
 * A bridge message in Claude Code's envelope. An assistant one names us as its model: not
 * `<synthetic>`, which marks the lines Claude Code leaves out of what it sends.
 */
function bridge(line: Extract<NewLine, { kind: 'bridge' }>, source: Json, at: Date): Json {
  const value: Json = { parentUuid: line.parentId ?? null };
  for (const field of ENVELOPE) if (source[field] !== undefined) value[field] = source[field];
  value.type = line.role;
  if (line.closing) {
    // Claude Code's own record for a turn nobody answered, as it writes it when it repairs a session.
    value.message = { id: line.id, model: '<synthetic>', role: 'assistant', stop_reason: 'stop_sequence', stop_sequence: '', type: 'message', content: [{ type: 'text', text: NO_RESPONSE_TEXT }] };
    value.isApiErrorMessage = false;
    value.uuid = line.id;
    value.timestamp = timestampOr(source, at);
    return value;
  }
  const content = [{ type: 'text', text: BRIDGE_TEXTS[line.role] }];
  value.message = line.role === 'user' ? { role: 'user', content } : { id: `msg_bridge_${line.id ?? ''}`, type: 'message', role: 'assistant', model: 'transcript-doctor-bridge', content, stop_reason: 'end_turn' };
  value.uuid = line.id;
  value.timestamp = timestampOr(source, at);
  return value;
}

/** A `user` line holding an error `tool_result`, with the envelope of the line it follows. */
function missingResult(line: Extract<NewLine, { kind: 'missing-result' }>, source: Json, at: Date): Json {
  const value: Json = { parentUuid: line.parentId ?? null };
  for (const field of ENVELOPE) if (source[field] !== undefined) value[field] = source[field];
  value.type = 'user';
  value.message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: line.callId, content: MISSING_RESULT_TEXT, is_error: true }] };
  value.uuid = line.id;
  value.timestamp = timestampOr(source, at);
  value.toolUseResult = 'Error: tool result missing';
  if (typeof source.uuid === 'string') value.sourceToolAssistantUUID = source.uuid;
  return value;
}
