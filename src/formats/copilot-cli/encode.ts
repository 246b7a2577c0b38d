import { createHash } from 'node:crypto';
import { BRIDGE_TEXTS, inApplyOrder, type EntryEdit, type NewLine } from '../../model/edits.js';
import type { Encoder } from '../format.js';
import { isObject, timestampOr, type Json } from '../json.js';
import { fixSchemaBreaks } from './schema.js';
import { ASSISTANT_MESSAGE, INTERRUPTED, INTERRUPTED_MESSAGE, SESSION_START, TOOL_COMPLETE, USER_MESSAGE } from './events.js';
import { SCHEMA_VERSION } from './schema-table.js';

export const copilotCliEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    const data = isObject(value.data) ? value.data : undefined;
    for (const edit of inApplyOrder(edits)) applyEdit(value, data, edit);
  },
  newId: uuidFrom,
  create(line, source, at) {
    const after = isObject(source) ? source : {};
    if (line.kind === 'header') return start(line.id, after, at);
    return line.kind === 'bridge' ? bridge(line, after, at) : interrupted(line, after, at);
  },
};

function applyEdit(value: Json, data: Json | undefined, edit: EntryEdit): void {
  if (edit.kind === 'fix-schema') {
    fixSchemaBreaks(value);
    return;
  }
  if (data === undefined) return;
  const requests = Array.isArray(data.toolRequests) ? data.toolRequests : undefined;
  const request: unknown = 'block' in edit ? requests?.[edit.block] : undefined;
  if (edit.kind === 'set-call-id' && isObject(request)) request.toolCallId = edit.id;
  else if (edit.kind === 'set-call-name' && isObject(request)) request.name = edit.name;
  else if (edit.kind === 'set-result-id') data.toolCallId = edit.id;
  else if (edit.kind === 'drop-blocks' && requests !== undefined) data.toolRequests = requests.filter((_, i) => !edit.blocks.includes(i));
  else if (edit.kind === 'fill-blank-user' && typeof data.content === 'string') data.content = BRIDGE_TEXTS.user;
  // Nothing else has a place in an event: entries are named by position, so links and ids are
  // never rewritten; results are events of their own; and Copilot has no reasoning signatures,
  // placeholders or second shapes of a call to rewrite.
}

/** A UUID (version 4 layout) derived from `seed`, so a repair run twice writes the same ids. */
function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A new event, written right after `source`: it names that event as the one before it, as the
 * client chains them, and gets an id derived from what it holds, so a second run writes the same.
 */
function envelope(type: string, data: Json, seed: string, source: Json, at: Date): Json {
  const timestamp = timestampOr(source, at);
  return { type, data, id: uuidFrom(`${seed}:${String(source.id)}`), timestamp, parentId: typeof source.id === 'string' ? source.id : null };
}

/**
 * The failed completion Copilot's own runtime appends when it resumes a session with an
 * unanswered call (`model: "resumed"`, `code: "interrupted"`), so the client reads it as its own.
 */
function interrupted(line: Extract<NewLine, { kind: 'missing-result' }>, source: Json, at: Date): Json {
  const data: Json = { toolCallId: line.callId, model: 'resumed', interactionId: 'resume', success: false, error: { message: INTERRUPTED_MESSAGE, code: INTERRUPTED } };
  // A sub-agent's call (its message is the source) is answered in that agent's stream, named as its own events name it.
  const calling = isObject(source.data) ? source.data : {};
  if (typeof calling.parentToolCallId === 'string') data.parentToolCallId = calling.parentToolCallId;
  const event = envelope(TOOL_COMPLETE, data, `result:${line.callId}`, source, at);
  if (typeof source.agentId === 'string') event.agentId = source.agentId;
  return event;
}

/**
 * A session.start in place of one lost, with what the schema requires: the session id (the name of
 * the session's folder), and the time of the first event left as its start.
 */
function start(sessionId: string, first: Json, at: Date): Json {
  const timestamp = timestampOr(first, at);
  const data = { sessionId, version: 1, producer: 'copilot-agent', copilotVersion: SCHEMA_VERSION, startTime: timestamp };
  return { type: SESSION_START, data, id: uuidFrom(`start:${sessionId}`), timestamp, parentId: null };
}

/** A short user or assistant message a provider's turn order needs, in Copilot's event shape. */
function bridge(line: Extract<NewLine, { kind: 'bridge' }>, source: Json, at: Date): Json {
  const text = BRIDGE_TEXTS[line.role];
  if (line.role === 'user') return envelope(USER_MESSAGE, { content: text }, 'bridge:user', source, at);
  const event = envelope(ASSISTANT_MESSAGE, { messageId: '', content: text, toolRequests: [] }, 'bridge:assistant', source, at);
  (event.data as Json).messageId = event.id;
  return event;
}
