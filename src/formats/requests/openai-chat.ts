import type { EntryEdit } from '../../model/edits.js';
import type { Entry, ToolCallRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { BLANK_USER_TEXT, isBlank, itemEntry, MISSING_RESULT_TEXT, pointersOf, requestSemantics, sent, type Pointers } from './item.js';
import { itemEncoder, type RequestShape } from './shape.js';

/**
 * OpenAI Chat Completions (`{"messages":[…]}`; also the fine-tuning and evaluation dataset
 * format): assistant messages call tools in `tool_calls`, each answered by its own `tool`
 * message naming `tool_call_id`. An assistant message's blocks are counted content parts first,
 * then its tool calls, so one block number names either.
 */
export const openaiChat: RequestShape = {
  provider: 'openai-chat',
  list: 'messages',
  // Results pair by id and may come in any order; empty text is accepted.
  semantics: requestSemantics({}),
  createDecoder: (list) => new ChatDecoder(pointersOf(list)),
  encoder: itemEncoder(applyEdit, {
    result: (line) => ({ role: 'tool', tool_call_id: line.callId, content: MISSING_RESULT_TEXT }),
    bridge: (role, text) => ({ role, content: text }),
  }),
};

class ChatDecoder implements Decoder {
  constructor(private readonly pointers: Pointers) {}

  state(): undefined {
    return undefined;
  }

  decode(value: unknown, line: number, index: number): Entry {
    const pointers = this.pointers;
    const pointer = pointers.item(index);
    const entry = itemEntry(index, line, pointer);
    if (!isObject(value) || typeof value.role !== 'string') return entry;
    sent(entry);
    switch (value.role) {
      case 'user':
        entry.role = 'user';
        readContent(value.content, pointers, index, entry);
        return entry;
      case 'assistant':
        entry.role = 'assistant';
        readContent(value.content, pointers, index, entry);
        readCalls(value, pointers, index, entry);
        return entry;
      case 'tool':
        entry.role = 'toolResult';
        entry.blockCount = 1;
        entry.toolResults = [{ callId: nonEmptyString(value.tool_call_id), pointer, synthetic: false }];
        return entry;
      default:
        // system, developer, and the legacy function role: sent, but no turn of the conversation.
        entry.role = 'other';
        return entry;
    }
  }
}

/** Content parts before the calls: a string is one block when it says something, a list one block per part. */
function contentBlocks(content: unknown): number {
  if (Array.isArray(content)) return content.length;
  return typeof content === 'string' && content !== '' ? 1 : 0;
}

function readContent(content: unknown, pointers: Pointers, index: number, entry: Entry): void {
  entry.blockCount = contentBlocks(content);
  if (typeof content === 'string') {
    if (entry.role === 'user' && isBlank(content)) entry.blankText = true;
    return;
  }
  if (!Array.isArray(content)) return;
  if (content.length === 0) {
    entry.emptyContent = true;
    return;
  }
  const blank: string[] = [];
  content.forEach((part, k) => {
    if (isObject(part) && part.type === 'text' && (part.text === undefined || isBlank(part.text))) {
      blank.push(pointers.part(index, 'content', k));
      if (typeof part.text === 'string' && part.text !== '') (entry.whitespaceTextBlocks ??= []).push(pointers.part(index, 'content', k));
    }
  });
  if (blank.length === content.length && entry.role === 'user') entry.blankText = true;
  else if (blank.length > 0) entry.blankTextBlocks = blank;
}

function readCalls(message: Json, pointers: Pointers, index: number, entry: Entry): void {
  if (!Array.isArray(message.tool_calls) || message.tool_calls.length === 0) return;
  const first = entry.blockCount;
  entry.toolCalls = message.tool_calls.map((call, j): ToolCallRef => {
    const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
    const id = isObject(call) ? nonEmptyString(call.id) : undefined;
    const name = typeof fn?.name === 'string' ? intern(fn.name) : undefined;
    const missing: NonNullable<ToolCallRef['missing']> = [];
    if (id === undefined) missing.push('id');
    if (name === undefined || name.trim() === '') missing.push('name');
    if (typeof fn?.arguments !== 'string') missing.push('arguments');
    const ref: ToolCallRef = { id, name, pointer: pointers.part(index, 'tool_calls', j), blockIndex: first + j };
    if (missing.length > 0) ref.missing = missing;
    return ref;
  });
  entry.blockCount = first + message.tool_calls.length;
}

function applyEdit(message: Json, edit: EntryEdit): void {
  const first = contentBlocks(message.content);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const call = 'block' in edit && isObject(calls[edit.block - first]) ? (calls[edit.block - first] as Json) : undefined;
  switch (edit.kind) {
    case 'set-call-id':
      if (call !== undefined) call.id = edit.id;
      return;
    case 'set-call-name':
      if (call !== undefined && isObject(call.function)) call.function.name = edit.name;
      return;
    case 'set-result-id':
      message.tool_call_id = edit.id;
      return;
    case 'drop-blocks': {
      if (Array.isArray(message.content)) message.content = message.content.filter((_, k) => !edit.blocks.includes(k));
      const kept = calls.filter((_, j) => !edit.blocks.includes(first + j));
      // An empty tool_calls list is rejected ("[] is too short"): a message without calls has none.
      if (kept.length < calls.length) {
        if (kept.length > 0) message.tool_calls = kept;
        else delete message.tool_calls;
      }
      return;
    }
    case 'fill-blank-user':
      message.content = BLANK_USER_TEXT;
      return;
    // Tool messages carry one result each and no name to fill; nothing else has a place here.
    default:
      return;
  }
}
