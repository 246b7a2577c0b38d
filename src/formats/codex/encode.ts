import { BRIDGE_TEXTS, inApplyOrder, type EntryEdit, type NewLine } from '../../model/edits.js';
import type { Encoder } from '../format.js';
import { isObject, timestampOr, type Json } from '../json.js';
import { applySlimEdits } from '../slim-edits.js';
import { codexSlim } from './slim.js';
import { ABORTED_OUTPUT, CALL_ITEMS } from './items.js';
import { unreadableParts } from './lost-type.js';
import { pairReplacementHistory } from './replacement-history.js';
import { completeSessionMeta, newSessionMeta, uuidFrom } from './session-meta.js';

export const codexEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    for (const edit of inApplyOrder(edits)) applyEdit(value, edit);
    applySlimEdits(value, edits, codexSlim);
  },
  newId: uuidFrom,
  create(line, source, at) {
    if (line.kind === 'bridge') return bridge(line, source, at);
    return line.kind === 'header' ? newSessionMeta(line.id, source, at) : missingOutput(line, source, at);
  },
};

function applyEdit(line: Json, edit: EntryEdit): void {
  const item = isObject(line.payload) ? line.payload : undefined;
  switch (edit.kind) {
    case 'set-session-id':
      completeSessionMeta(line, edit.id);
      return;
    case 'set-call-id':
    case 'set-result-id':
      if (item !== undefined) item.call_id = edit.id;
      return;
    case 'set-call-name':
      if (item !== undefined) item.name = edit.name;
      return;
    case 'fix-kept-history':
      if (item !== undefined && Array.isArray(item.replacement_history)) item.replacement_history = pairReplacementHistory(item.replacement_history, edit.mode);
      return;
    case 'set-sequence':
      line.ordinal = edit.value;
      return;
    case 'set-item-type':
      if (item !== undefined && item.type === undefined) item.type = edit.type;
      return;
    case 'retype-parts':
      if (item !== undefined && typeof item.role === 'string' && Array.isArray(item.content)) retypeParts(item.role, item.content);
      return;
    // Nothing else has a place in a rollout line: a line is one item, so repair drops whole lines
    // and never blocks; lines are linked by position; outputs carry no tool name; and Codex has no
    // failed turns, placeholders or canonical shapes of its own to write.
    default:
      return;
  }
}

/** A bridge message as a Responses message item. */
function bridge(line: Extract<NewLine, { kind: 'bridge' }>, source: unknown, at: Date): Json {
  const after = isObject(source) ? source : {};
  const part = { type: line.role === 'user' ? 'input_text' : 'output_text', text: BRIDGE_TEXTS[line.role] };
  return { timestamp: timestampOr(after, at), type: 'response_item', payload: { type: 'message', role: line.role, content: [part] } };
}

/**
 * The output Codex's own normalisation would add for an unanswered call (`ensure_call_outputs_present`),
 * as a rollout line with the time of the line it follows, so repeat runs write the same bytes.
 * The output's type must match the call's; when the line it follows is not that call (the call
 * was not the last item of its response), a `function_call_output` answers it.
 */
function missingOutput(line: Extract<NewLine, { kind: 'missing-result' }>, source: unknown, at: Date): Json {
  const after = isObject(source) ? source : {};
  const call = isObject(after.payload) && after.payload.call_id === line.callId ? after.payload : undefined;
  const type = (typeof call?.type === 'string' ? CALL_ITEMS.get(call.type)?.output : undefined) ?? 'function_call_output';
  const payload: Json =
    type === 'tool_search_output'
      ? { type, call_id: line.callId, status: 'completed', execution: 'client', tools: [] }
      : { type, call_id: line.callId, output: ABORTED_OUTPUT };
  return { timestamp: timestampOr(after, at), type: 'response_item', payload };
}

/** Each part Codex cannot read takes the type it reads as, when it has one (see unreadableParts). */
function retypeParts(role: string, content: unknown[]): void {
  for (const { pointer, readAs } of unreadableParts(role, content) ?? []) {
    if (readAs !== undefined) (content[Number(pointer.slice(pointer.lastIndexOf('/') + 1))] as Json).type = readAs;
  }
}
