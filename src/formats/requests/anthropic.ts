import type { EntryEdit } from '../../model/edits.js';
import type { Entry, ServerToolRef, ToolCallRef, ToolResultRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { fillBlankText, isBlankTextBlock, isObject, nonEmptyString, type Json } from '../json.js';
import { BLANK_USER_TEXT, isBlank, itemEntry, lastIndexOf, MISSING_RESULT_TEXT, pointersOf, requestSemantics, sent, type Pointers } from './item.js';
import { itemEncoder, type RequestShape } from './shape.js';

/**
 * Anthropic Messages (`{"model","system","messages":[…]}`): `tool_use` blocks in an assistant
 * message, answered by `tool_result` blocks at the start of the next user message.
 */
export const anthropic: RequestShape = {
  provider: 'anthropic',
  list: 'messages',
  // Anthropic rejects empty and whitespace-only text blocks; results pair by id in any order.
  semantics: requestSemantics({ blankTextRejected: true, api: 'messages' }),
  createDecoder: (list) => new AnthropicDecoder(pointersOf(list)),
  encoder: itemEncoder(applyEdit, {
    result: (line) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: line.callId, content: MISSING_RESULT_TEXT, is_error: true }] }),
    bridge: (role, text) => ({ role, content: [{ type: 'text', text }] }),
  }),
  arrange: oneResultMessage,
};

function isResult(block: unknown): boolean {
  return isObject(block) && block.type === 'tool_result';
}

/** A user message whose content starts with tool results. */
function answers(item: unknown): item is Json & { content: unknown[] } {
  return isObject(item) && item.role === 'user' && Array.isArray(item.content) && isResult(item.content[0]);
}

/**
 * Every result of a call turn belongs in the one message after it: a message of nothing but
 * results (one the repair added or moved) joins the result message before it, its results after
 * that message's own and before any text, so results still come first.
 */
function oneResultMessage(items: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    const previous = out[out.length - 1];
    if (answers(previous) && answers(item) && item.content.every(isResult)) {
      const content = previous.content;
      const lead = content.findIndex((block) => !isResult(block));
      content.splice(lead === -1 ? content.length : lead, 0, ...item.content);
      continue;
    }
    out.push(item);
  }
  return out;
}

class AnthropicDecoder implements Decoder {
  constructor(private readonly pointers: Pointers) {}

  state(): undefined {
    return undefined;
  }

  decode(value: unknown, line: number, index: number): Entry {
    const entry = itemEntry(index, line, this.pointers.item(index));
    if (!isObject(value) || (value.role !== 'user' && value.role !== 'assistant')) return entry;
    sent(entry);
    entry.role = value.role;
    readContent(value.content, this.pointers, index, entry);
    return entry;
  }
}

function readContent(content: unknown, pointers: Pointers, index: number, entry: Entry): void {
  if (typeof content === 'string') {
    if (isBlank(content) && entry.role === 'user') entry.blankText = true;
    return;
  }
  if (!Array.isArray(content)) return;
  entry.blockCount = content.length;
  if (content.length === 0) {
    entry.emptyContent = true;
    return;
  }
  const calls: ToolCallRef[] = [];
  const results: ToolResultRef[] = [];
  const server: ServerToolRef[] = [];
  const blank: string[] = [];
  content.forEach((block, k) => {
    if (!isObject(block)) return;
    const at = pointers.part(index, 'content', k);
    if (block.type === 'tool_use') calls.push(readCall(block, at, k));
    else if (block.type === 'tool_result') {
      if (results.length < k) entry.resultsAfterOther = true;
      results.push({ callId: nonEmptyString(block.tool_use_id), pointer: at, synthetic: false });
    } else if (block.type === 'server_tool_use') server.push({ kind: 'call', id: nonEmptyString(block.id), type: block.type, pointer: at, blockIndex: k });
    else if (typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
      server.push({ kind: 'result', id: nonEmptyString(block.tool_use_id), type: block.type, pointer: at, blockIndex: k });
    } else if (isBlankTextBlock(block)) {
      blank.push(at);
      if (typeof block.text === 'string' && block.text !== '') (entry.whitespaceTextBlocks ??= []).push(at);
    } else if (block.type === 'thinking' && nonEmptyString(block.signature) !== undefined) entry.signedThinking = true;
  });
  if (calls.length > 0) entry.toolCalls = calls;
  if (server.length > 0) entry.serverTools = server;
  if (results.length > 0) {
    entry.role = 'toolResult';
    entry.toolResults = results;
  }
  if (blank.length === content.length && entry.role === 'user') entry.blankText = true;
  else if (blank.length > 0) entry.blankTextBlocks = blank;
}

function readCall(block: Json, pointer: string, blockIndex: number): ToolCallRef {
  const id = nonEmptyString(block.id);
  const name = typeof block.name === 'string' ? intern(block.name) : undefined;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (block.input === undefined || block.input === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer, blockIndex };
  if (missing.length > 0) call.missing = missing;
  return call;
}

function applyEdit(message: Json, edit: EntryEdit): void {
  const content = message.content;
  const index = 'block' in edit ? edit.block : 'pointer' in edit ? lastIndexOf(edit.pointer) : -1;
  const block = Array.isArray(content) && isObject(content[index]) ? (content[index] as Json) : undefined;
  if (edit.kind === 'set-call-id' && block !== undefined) block.id = edit.id;
  else if (edit.kind === 'set-call-name' && block !== undefined) block.name = edit.name;
  else if (edit.kind === 'set-result-id' && block !== undefined) block.tool_use_id = edit.id;
  else if (edit.kind === 'drop-blocks' && Array.isArray(content)) message.content = content.filter((_, k) => !edit.blocks.includes(k));
  else if (edit.kind === 'results-first' && Array.isArray(content)) {
    const isResult = (item: unknown) => isObject(item) && item.type === 'tool_result';
    message.content = [...content.filter(isResult), ...content.filter((item) => !isResult(item))];
  } else if (edit.kind === 'fill-blank-user') message.content = fillBlankText(content, BLANK_USER_TEXT);
  else if (edit.kind === 'drop-signed-reasoning' && Array.isArray(content)) message.content = content.filter((item) => !isSignedThinking(item));
}

/** A thinking block its signature binds to Anthropic (what the decoder marks signedThinking for). */
function isSignedThinking(block: unknown): boolean {
  return isObject(block) && block.type === 'thinking' && nonEmptyString(block.signature) !== undefined;
}
