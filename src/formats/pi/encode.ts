import { createHash } from 'node:crypto';
import { BRIDGE_TEXTS, inApplyOrder, type EntryEdit, type NewLine } from '../../model/edits.js';
import { positionOf } from '../../model/entry.js';
import type { Encoder } from '../format.js';
import { CALL_ID_FIELDS, CALL_TYPES, canonicalCall, canonicalResult, isCanonicalCall, RESULT_ID_FIELDS } from './canonical.js';
import { fillBlankText, isObject, nonEmptyString, timestampOr, type Json } from '../json.js';
import { applySlimEdits } from '../slim-edits.js';
import { piSlim } from './slim.js';

/** The exact texts current OpenClaw writes on disk, so its own checks recognise our repairs. */
export const FAILED_TURN_TEXT = '[assistant turn failed before producing content]';
export const BLANK_USER_TEXT = '(continue)';
export const MISSING_RESULT_TEXT =
  '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.';

export const piEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    // Canonicalizing may replace the message object, so it goes first and the rest edit the result.
    if (edits.some((edit) => edit.kind === 'canonicalize') && isObject(value.message)) value.message = canonicalMessage(value.message);
    const message = isObject(value.message) ? value.message : undefined;
    for (const edit of inApplyOrder(edits)) applyEdit(value, message, edit);
    applySlimEdits(value, edits, piSlim);
  },
  newId(seed) {
    return createHash('sha256').update(seed).digest('hex').slice(0, 8);
  },
  create(line, source, at) {
    return line.kind === 'header' ? header(line, source, at) : line.kind === 'bridge' ? bridge(line, source, at) : missingResult(line, source, at);
  },
};

function applyEdit(value: Json, message: Json | undefined, edit: EntryEdit): void {
  switch (edit.kind) {
    case 'set-parent':
      value.parentId = edit.parentId;
      return;
    case 'set-first-kept': {
      // Linear v1 files name the first kept entry by position, not by id.
      const position = positionOf(edit.id);
      if (position !== undefined) value.firstKeptEntryIndex = position;
      else value.firstKeptEntryId = edit.id;
      return;
    }
    case 'set-session-id':
      value.id = edit.id;
      return;
    case 'reencode':
    case 'canonicalize':
    case 'results-first':
      return;
  }
  if (message === undefined) return;
  switch (edit.kind) {
    case 'drop-blocks':
      if (Array.isArray(message.content)) message.content = message.content.filter((_, i) => !edit.blocks.includes(i));
      return;
    case 'set-tool-name':
      message.toolName = edit.name;
      return;
    case 'set-result-id':
      message[RESULT_ID_FIELDS.find((field) => typeof message[field] === 'string') ?? 'toolCallId'] = edit.id;
      return;
    case 'set-call-id':
    case 'set-call-name': {
      const block: unknown = Array.isArray(message.content) ? message.content[edit.block] : undefined;
      if (!isObject(block)) return;
      if (edit.kind === 'set-call-name') block.name = edit.name;
      else block[CALL_ID_FIELDS.find((field) => typeof block[field] === 'string') ?? 'id'] = edit.id;
      return;
    }
    case 'fill-failed-turn':
      message.content = [{ type: 'text', text: FAILED_TURN_TEXT }];
      return;
    case 'fill-blank-user':
      message.content = fillBlankText(message.content, BLANK_USER_TEXT);
      return;
    case 'trim-final-text':
      trimLastText(message);
      return;
    case 'drop-signed-reasoning':
      if (Array.isArray(message.content)) message.content = message.content.filter((block) => !(isObject(block) && block.type === 'thinking' && nonEmptyString(block.thinkingSignature) !== undefined));
      return;
  }
}

function trimLastText(message: Json): void {
  const last: unknown = Array.isArray(message.content) ? message.content.at(-1) : undefined;
  if (isObject(last) && last.type === 'text' && typeof last.text === 'string') last.text = last.text.trimEnd();
}

function canonicalMessage(message: Json): Json {
  if (message.role === 'toolResult') {
    const result = canonicalResult(message);
    return result.conflict === undefined ? result.value : message;
  }
  if (Array.isArray(message.content)) {
    message.content = message.content.map((block) => {
      if (!isObject(block) || !CALL_TYPES.has(String(block.type)) || isCanonicalCall(block)) return block;
      const call = canonicalCall(block);
      return call.conflict === undefined ? call.value : block;
    });
  }
  return message;
}

function timestamps(source: unknown, at: Date): { iso: string; ms: number } {
  const iso = timestampOr(source, at);
  const inner = isObject(source) && isObject(source.message) ? source.message.timestamp : undefined;
  return { iso, ms: typeof inner === 'number' ? inner : Date.parse(iso) || at.getTime() };
}

/** The message line an added message goes in: its id and parent when it has them, the source's time. */
function messageLine(line: { id?: string; parentId?: string }, iso: string): Json {
  const entry: Json = { type: 'message' };
  if (line.id !== undefined) {
    entry.id = line.id;
    entry.parentId = line.parentId ?? null;
  }
  entry.timestamp = iso;
  return entry;
}

/** A bridge message; an assistant one says it was not a model's (pi's fields, with our name where the model's would be). */
function bridge(line: Extract<NewLine, { kind: 'bridge' }>, source: unknown, at: Date): Json {
  const { iso, ms } = timestamps(source, at);
  const entry = messageLine(line, iso);
  const content = [{ type: 'text', text: BRIDGE_TEXTS[line.role] }];
  entry.message =
    line.role === 'user'
      ? { role: 'user', content, timestamp: ms }
      : { role: 'assistant', content, api: 'transcript-doctor', provider: 'transcript-doctor', model: 'bridge', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: 'stop', timestamp: ms };
  return entry;
}

function missingResult(line: Extract<NewLine, { kind: 'missing-result' }>, source: unknown, at: Date): Json {
  const { iso, ms } = timestamps(source, at);
  const entry = messageLine(line, iso);
  const message: Json = { role: 'toolResult', toolCallId: line.callId };
  if (line.toolName) message.toolName = line.toolName;
  message.content = [{ type: 'text', text: MISSING_RESULT_TEXT }];
  // OpenClaw recognises the flag and lets a real result that turns up later replace this one.
  message.details = { openclawSyntheticMissingToolResult: true, reason: 'missing_tool_result', repairedBy: 'transcript-doctor' };
  message.isError = true;
  message.timestamp = ms;
  entry.message = message;
  return entry;
}

function header(line: Extract<NewLine, { kind: 'header' }>, source: unknown, at: Date): Json {
  const value: Json = { type: 'session' };
  if (line.version !== undefined) value.version = line.version;
  value.id = line.id;
  value.timestamp = timestamps(source, at).iso;
  value.cwd = '';
  return value;
}
