import type { Entry, ToolCallRef } from '../../model/entry.js';
import { ABORTED_OUTPUT, CALL_ITEMS, MODEL_ITEMS, OUTPUT_ITEMS, SERVER_EXECUTION, type CallItem } from '../codex/items.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { itemEntry, pointersOf, requestSemantics, sent, type Pointers } from './item.js';
import { itemEncoder, type RequestShape } from './shape.js';

/**
 * The run of items the model generated between two inputs is one response: outputs of its
 * parallel calls follow the whole run (see the Codex decoder, whose rollouts hold the same items).
 */
const MODEL_OUTPUT = 'responses:model-output';

/**
 * OpenAI Responses (`{"input":[…]}`): a flat list of items. `function_call` (and the other call
 * items) are answered by an output item naming the same `call_id`, anywhere after it.
 */
export const openaiResponses: RequestShape = {
  provider: 'openai-responses',
  list: 'input',
  // Outputs pair by call_id alone; empty text is accepted.
  semantics: requestSemantics({ api: 'responses' }),
  createDecoder: (list) => new ResponsesDecoder(pointersOf(list)),
  // An item is one call or one output: drops take whole items, only ids and names change inside one.
  encoder: itemEncoder(
    (item, edit) => {
      if (edit.kind === 'set-call-id' || edit.kind === 'set-result-id') item.call_id = edit.id;
      else if (edit.kind === 'set-call-name') item.name = edit.name;
    },
    {
      result(line, source) {
        // The output's type must answer the call's; when the item before it is another, a function output does.
        const call = isObject(source) && source.call_id === line.callId && typeof source.type === 'string' ? CALL_ITEMS.get(source.type) : undefined;
        const type = call?.output ?? 'function_call_output';
        return type === 'tool_search_output'
          ? { type, call_id: line.callId, status: 'completed', execution: 'client', tools: [] }
          : { type, call_id: line.callId, output: ABORTED_OUTPUT };
      },
      bridge: (role, text) => ({ type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] }),
    },
  ),
};

class ResponsesDecoder implements Decoder {
  constructor(private readonly pointers: Pointers) {}

  state(): undefined {
    return undefined;
  }

  decode(value: unknown, line: number, index: number): Entry {
    const pointer = this.pointers.item(index);
    const entry = itemEntry(index, line, pointer);
    if (!isObject(value)) return entry;
    // An easy input message may leave out its type.
    const type = typeof value.type === 'string' ? value.type : typeof value.role === 'string' ? 'message' : undefined;
    if (type === undefined) return entry;
    const call = CALL_ITEMS.get(type);
    const server = value.execution === SERVER_EXECUTION;
    if (type === 'message') {
      if (typeof value.role !== 'string') return entry;
      item(entry);
      if (value.role === 'assistant') modelOutput(entry);
      else entry.role = value.role === 'user' ? 'user' : 'other';
    } else if (call !== undefined && !server) {
      item(entry);
      modelOutput(entry);
      entry.toolCalls = [readCall(value, call, pointer)];
    } else if (OUTPUT_ITEMS.has(type) && !server && (type !== 'tool_search_output' || value.call_id != null)) {
      item(entry);
      entry.role = 'toolResult';
      entry.toolResults = [{ callId: nonEmptyString(value.call_id), pointer, synthetic: value.output === ABORTED_OUTPUT }];
    } else if (MODEL_ITEMS.has(type) || call !== undefined || OUTPUT_ITEMS.has(type)) {
      item(entry);
      modelOutput(entry);
      // Encrypted reasoning verifies only at the Responses API (foreign-signed-reasoning elsewhere).
      if (type === 'reasoning' && nonEmptyString(value.encrypted_content) !== undefined) entry.signedThinking = true;
    }
    return entry;
  }
}

function item(entry: Entry): void {
  sent(entry);
  entry.blockCount = 1;
}

function modelOutput(entry: Entry): void {
  entry.role = 'assistant';
  entry.group = MODEL_OUTPUT;
}

function readCall(value: Json, shape: CallItem, pointer: string): ToolCallRef {
  const id = nonEmptyString(value.call_id);
  const written = shape.name ?? value.name;
  const name = typeof written === 'string' ? intern(written) : undefined;
  const args = value[shape.arguments];
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (shape.textArguments ? typeof args !== 'string' : args === undefined || args === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer, blockIndex: 0 };
  if (missing.length > 0) call.missing = missing;
  return call;
}
