import type { Entry, ToolCallRef, ToolResultRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { BLANK_USER_TEXT, itemEntry, MISSING_RESULT_TEXT, pointersOf, requestSemantics, sent, type Pointers } from './item.js';
import { itemEncoder, type RequestShape } from './shape.js';
import { editParts, readParts, type PartReader } from '../gemini-parts.js';

/**
 * Gemini (`{"contents":[…]}`): `functionCall` parts in a `model` turn, answered by
 * `functionResponse` parts in the next turn, all in that one turn. Call ids are optional: a
 * response without one answers the first unanswered call of its name in the turn before it. A
 * call without an id gets `#<item>.<part>` in the model, which is never written to the file.
 */
export const gemini: RequestShape = {
  provider: 'gemini',
  list: 'contents',
  // Gemini rejects empty text parts; responses name their function.
  semantics: requestSemantics({ blankTextRejected: true, resultNames: true, partsSigned: true, blocksAt: '/parts' }),
  createDecoder: (list) => new GeminiDecoder(pointersOf(list)),
  encoder: itemEncoder((content, edit) => editParts(content, edit, BLANK_USER_TEXT), {
    result(line) {
      const response: Json = isModelId(line.callId) ? {} : { id: line.callId };
      response.name = line.toolName ?? '';
      response.response = { error: MISSING_RESULT_TEXT };
      return { role: 'user', parts: [{ functionResponse: response }] };
    },
    bridge: (role, text) => ({ role: role === 'assistant' ? 'model' : 'user', parts: [{ text }] }),
  }),
  arrange: oneResponseTurn,
};

function isModelId(id: string): boolean {
  return id.startsWith('#');
}

interface OpenCall {
  id: string;
  name: string | undefined;
  answered: boolean;
}

class GeminiDecoder implements Decoder {
  /** The calls of the last model turn, which the responses after it answer. */
  private calls: OpenCall[] = [];

  constructor(private readonly pointers: Pointers) {}

  state(): undefined {
    return undefined;
  }

  private readonly reader: PartReader = {
    pointer: (j, index) => this.pointers.part(index, 'parts', j),
    call: (call, at, j, index) => this.call(call, at, index, j),
    response: (response, at, j, index) => this.response(response, at, index, j),
  };

  decode(value: unknown, line: number, index: number): Entry {
    const entry = itemEntry(index, line, this.pointers.item(index));
    if (!isObject(value) || !Array.isArray(value.parts)) return entry;
    sent(entry);
    entry.role = value.role === 'model' ? 'assistant' : 'user';
    if (entry.role === 'assistant' && value.parts.length > 0) this.calls = [];
    readParts(entry, value.parts, this.reader, index);
    return entry;
  }

  private call(call: Json, pointer: string, index: number, j: number): ToolCallRef {
    const id = nonEmptyString(call.id) ?? `#${index}.${j}`;
    const name = typeof call.name === 'string' ? intern(call.name) : undefined;
    this.calls.push({ id, name, answered: false });
    const ref: ToolCallRef = { id, name, pointer, blockIndex: j };
    if (isModelId(id)) ref.anonymous = true;
    if (name === undefined || name.trim() === '') ref.missing = ['name'];
    return ref;
  }

  private response(response: Json, pointer: string, index: number, j: number): ToolResultRef {
    const name = typeof response.name === 'string' ? response.name : undefined;
    let callId = nonEmptyString(response.id);
    const open = this.calls.find((call) => !call.answered && (callId !== undefined ? call.id === callId : call.name === name));
    if (open !== undefined) {
      open.answered = true;
      callId = open.id;
    }
    const ref: ToolResultRef = { callId: callId ?? `#${index}.${j}`, pointer, name, synthetic: false };
    if (isModelId(ref.callId!)) ref.anonymous = true;
    return ref;
  }
}

/** A user turn holding nothing but function responses. */
function isResponseTurn(item: unknown): item is Json & { parts: unknown[] } {
  return isObject(item) && item.role !== 'model' && Array.isArray(item.parts) && item.parts.length > 0 && item.parts.every((part) => isObject(part) && isObject(part.functionResponse));
}

/**
 * Gemini wants every response to a call turn in the one turn after it ("the number of function
 * response parts is equal to the number of function call parts"): a response the repair added in
 * a turn of its own joins the turn beside it, the parts in call order.
 */
function oneResponseTurn(items: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out.push(item);
    if (!isObject(item) || item.role !== 'model' || !Array.isArray(item.parts)) continue;
    let end = i + 1;
    while (end < items.length && isResponseTurn(items[end])) end += 1;
    if (end - i <= 2) continue;
    const turns = items.slice(i + 1, end) as Array<Json & { parts: unknown[] }>;
    const order = callOrder(item.parts);
    const parts = turns.flatMap((turn) => turn.parts).map((part, k) => ({ part, rank: order(part as Json, k) }));
    parts.sort((a, b) => a.rank - b.rank);
    turns[0]!.parts = parts.map(({ part }) => part);
    out.push(turns[0]);
    i = end - 1;
  }
  return out;
}

/** Where a response's call stands in the call turn (by id, else by name); responses naming no call go last, as they were. */
function callOrder(callParts: unknown[]): (part: Json, k: number) => number {
  const calls = callParts.filter((part) => isObject(part) && isObject(part.functionCall)).map((part) => (part as { functionCall: Json }).functionCall);
  const taken = new Set<number>();
  return (part, k) => {
    const response = part.functionResponse as Json;
    const at = calls.findIndex((call, c) => !taken.has(c) && (response.id !== undefined ? call.id === response.id : call.name === response.name));
    if (at === -1) return calls.length + k;
    taken.add(at);
    return at;
  };
}
