import { createHash } from 'node:crypto';
import { BRIDGE_TEXTS, inApplyOrder, type NewLine } from '../../model/edits.js';
import type { Encoder } from '../format.js';
import { isObject, timestampOr, type Json } from '../json.js';
import { editParts } from '../gemini-parts.js';
import { applySlimEdits } from '../slim-edits.js';
import { qwenSlim } from './slim.js';

/** What a missing result says, so a person (and the model) reading the session knows it was not the tool. */
const MISSING_RESULT_TEXT = 'No result: the tool call was interrupted; transcript-doctor added this error result so the session can continue.';

/** What a blank prompt becomes: Qwen Code has no placeholder of its own, so the one OpenClaw writes. */
const BLANK_USER_TEXT = '(continue)';

/** The envelope fields every Qwen Code record repeats after its links, in the order it writes them (`createBaseRecord`). */
const ENVELOPE = ['cwd', 'version', 'gitBranch'];

export const qwenEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    const message = isObject(value.message) ? value.message : undefined;
    for (const edit of inApplyOrder(edits)) {
      if (edit.kind === 'set-parent') value.parentUuid = edit.parentId;
      else if (edit.kind === 'set-entry-id') value.uuid = edit.id;
      else if (message !== undefined) editParts(message, edit, BLANK_USER_TEXT);
    }
    applySlimEdits(value, edits, qwenSlim);
  },
  newId(seed) {
    const hex = createHash('sha256').update(seed).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  },
  create(line, source, at) {
    if (line.kind === 'header') throw new Error('Qwen Code sessions have no header line');
    const from = isObject(source) ? source : {};
    return line.kind === 'bridge' ? bridge(line, from, at) : failedResult(line, from, at);
  },
};

/** A record's links and envelope, copied from the record it follows; `type` and `provenance` as Qwen Code writes them. */
function record(id: string | undefined, parentId: string | undefined, type: string, provenance: string, source: Json, at: Date): Json {
  const value: Json = { uuid: id, parentUuid: parentId ?? null };
  if (source.sessionId !== undefined) value.sessionId = source.sessionId;
  value.timestamp = timestampOr(source, at);
  value.type = type;
  value.provenance = provenance;
  for (const field of ENVELOPE) if (source[field] !== undefined) value[field] = source[field];
  return value;
}

/**
 * A `tool_result` record for a call that never finished, in the shape Qwen Code writes for a
 * failed call (`createErrorResponse`): a `functionResponse` whose response is `{error}`, and a
 * `toolCallResult` with status `error`.
 */
function failedResult(line: Extract<NewLine, { kind: 'missing-result' }>, source: Json, at: Date): Json {
  const value = record(line.id, line.parentId, 'tool_result', 'tool_result', source, at);
  value.message = { role: 'user', parts: [{ functionResponse: { id: line.callId, name: line.toolName ?? '', response: { error: MISSING_RESULT_TEXT } } }] };
  value.toolCallResult = { callId: line.callId, status: 'error', resultDisplay: MISSING_RESULT_TEXT, errorType: 'execution_failed' };
  return value;
}

/** A short turn a provider's turn order needs, as a user prompt or a model reply naming us as its model. */
function bridge(line: Extract<NewLine, { kind: 'bridge' }>, source: Json, at: Date): Json {
  const text = BRIDGE_TEXTS[line.role];
  if (line.role === 'user') {
    const value = record(line.id, line.parentId, 'user', 'real_user', source, at);
    value.message = { role: 'user', parts: [{ text }] };
    return value;
  }
  const value = record(line.id, line.parentId, 'assistant', 'assistant_output', source, at);
  value.model = 'transcript-doctor-bridge';
  value.message = { role: 'model', parts: [{ text }] };
  return value;
}
