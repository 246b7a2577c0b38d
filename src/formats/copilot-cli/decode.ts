import { Entry, type ToolCallRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { schemaBreaks } from './schema.js';
import { ASSISTANT_MESSAGE, INTERRUPTED, TOOL_COMPLETE, USER_MESSAGE, providerOfModel } from './events.js';

/** Every event keeps its payload in `data`: that is the message an entry points at. */
const DATA = '/data';

/** Call pointers repeat; share them. */
const pointers: string[] = [];
function callPointer(index: number): string {
  return (pointers[index] ??= `/data/toolRequests/${index}`);
}

export interface CopilotCliDecoderState {
  /** The model of the last assistant message, so only a change of provider is written down (see Entry.provider). */
  model?: string;
}

/**
 * Copilot CLI events (`~/.copilot/session-state/<session>/events.jsonl`): `{type, data, id,
 * timestamp, parentId}`, each event naming the one before it. The conversation is `user.message`,
 * `assistant.message` (calls in `data.toolRequests`) and `tool.execution_complete` (one result,
 * by `data.toolCallId`); turn markers, tool starts, usage and session events are bookkeeping.
 * Events a sub-agent wrote (`agentId`) belong to that agent's own conversation, not the one the
 * main agent sends, so concurrent sub-agents interleaved in the file (#2543) do not break its pairs.
 */
export class CopilotCliDecoder implements Decoder {
  private model: string | undefined;

  constructor(state?: CopilotCliDecoderState) {
    this.model = state?.model;
  }

  state(): CopilotCliDecoderState {
    return this.model === undefined ? {} : { model: this.model };
  }

  decode(value: unknown, line: number, index: number): Entry {
    const entry = new Entry(index, line);
    if (!isObject(value)) return entry;
    const id = nonEmptyString(value.id);
    if (id === undefined) return entry;
    entry.id = id;
    // Every event names the one before it, session.start null; the client refuses an event without the field.
    if ('parentId' in value) entry.parentId = nonEmptyString(value.parentId) ?? null;
    else entry.parentMissing = true;
    entry.kind = 'state';
    const breaks = schemaBreaks(value);
    if (breaks !== undefined) entry.schemaBreaks = breaks;
    const data = value.data;
    if (!isObject(data) || value.agentId !== undefined || value.ephemeral === true) return entry;
    if (value.type === USER_MESSAGE) {
      message(entry);
      entry.role = 'user';
      if (typeof data.content === 'string' && data.content.trim() === '') entry.blankText = true;
    } else if (value.type === ASSISTANT_MESSAGE) {
      message(entry);
      entry.role = 'assistant';
      this.decodeAssistant(data, entry);
    } else if (value.type === TOOL_COMPLETE) {
      message(entry);
      entry.role = 'toolResult';
      const error = isObject(data.error) ? data.error : undefined;
      entry.toolResults = [{ callId: nonEmptyString(data.toolCallId), pointer: DATA, synthetic: data.success === false && error?.code === INTERRUPTED }];
    }
    return entry;
  }

  private decodeAssistant(data: Json, entry: Entry): void {
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    entry.blockCount = requests.length;
    if (requests.length > 0) {
      const calls: ToolCallRef[] = [];
      requests.forEach((request, i) => calls.push(readCall(request, i)));
      entry.toolCalls = calls;
      entry.outcome = 'toolUse';
    } else entry.outcome = 'complete';
    const model = typeof data.model === 'string' ? data.model : undefined;
    if (model !== undefined && model !== this.model) {
      const before = this.model === undefined ? undefined : providerOfModel(this.model);
      this.model = model;
      const now = providerOfModel(model);
      if (now !== before) entry.provider = now;
    }
  }
}

function message(entry: Entry): void {
  entry.kind = 'message';
  entry.pointer = DATA;
  entry.inContext = true;
}

/** A tool request: `{toolCallId, name, arguments, …}`; whatever is missing is said. */
function readCall(request: unknown, i: number): ToolCallRef {
  const block = isObject(request) ? request : {};
  const id = nonEmptyString(block.toolCallId);
  const name = typeof block.name === 'string' ? intern(block.name) : undefined;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (block.arguments === undefined || block.arguments === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer: callPointer(i), blockIndex: i };
  if (missing.length > 0) call.missing = missing;
  return call;
}
