import { Entry, positionalId, type ToolCallRef, type ToolResultRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { indexedPointers, intern } from '../intern.js';
import { isBlank, isObject, textReader, type Json, type TextReader } from '../json.js';
import { schemaBreaks } from './schema.js';
import { copilotUsage, noteCopilotSize } from './size.js';
import { USAGE_RECORD, ASSISTANT_MESSAGE, COMPACTION_COMPLETE, COMPACTION_START, INTERRUPTED, SESSION_START, SUBAGENT_STARTED, TOOL_COMPLETE, USER_MESSAGE, providerOfModel } from './events.js';

/** Every event keeps its payload in `data`: that is the message an entry points at. */
const DATA = '/data';

const callPointer = indexedPointers('/data/toolRequests');

export interface CopilotCliDecoderState {
  /** The model of the last assistant message, so only a change of provider is written down (see Entry.provider). */
  model?: string;
  /** The last assistant message with calls while some of them are unanswered. */
  calling?: { id: string; open: string[] };
  /** Since a compaction started: the first event it keeps ('' until the next event names it). */
  keepFrom?: string;
  /** An event was decoded: a thread that decodes the rest of a file is past its first. */
  started?: true;
  /** Sub-agents known by the task call that runs them: that call's id → the agent's id. */
  agentsByCall?: Record<string, string>;
}

/**
 * Copilot CLI events (`~/.copilot/session-state/<session>/events.jsonl`): `{type, data, id,
 * timestamp, parentId}`, each event naming the one before it, replayed in file order. The conversation is `user.message`,
 * `assistant.message` (calls in `data.toolRequests`) and `tool.execution_complete` (one result,
 * by `data.toolCallId`); turn markers, tool starts, usage and session events are bookkeeping.
 * Events a sub-agent wrote (`agentId`, or `data.parentToolCallId`) belong to that agent's own
 * conversation, not the one the main agent sends, so concurrent sub-agents interleaved in the file
 * (#2543) do not break its pairs; they are decoded as that agent's messages (Entry.agent), whose
 * calls pair among themselves.
 *
 * A successful `session.compaction_complete` is a compaction: its summary replaces what came before
 * its `session.compaction_start`, and what was written from the start on is kept, beginning with
 * the message of calls still unanswered at the start (1.0.102 keeps a call with its result; its
 * `preCompactionMessagesLength`, the counter #1005 had people edit, no longer changes what it
 * sends: tried offline with every value). Without a start, it keeps nothing before it.
 */
export class CopilotCliDecoder implements Decoder {
  readonly readsLatin1 = true;
  private model: string | undefined;
  private calling: { id: string; open: Set<string> } | undefined;
  private keepFrom: string | undefined;
  private started: boolean;
  private agentsByCall: Map<string, string> | undefined;

  constructor(state?: CopilotCliDecoderState) {
    this.started = state?.started === true;
    if (state?.agentsByCall !== undefined) this.agentsByCall = new Map(Object.entries(state.agentsByCall));
    this.model = state?.model;
    if (state?.calling !== undefined) this.calling = { id: state.calling.id, open: new Set(state.calling.open) };
    this.keepFrom = state?.keepFrom;
  }

  state(): CopilotCliDecoderState {
    const state: CopilotCliDecoderState = {};
    if (this.model !== undefined) state.model = this.model;
    if (this.calling !== undefined) state.calling = { id: this.calling.id, open: [...this.calling.open] };
    if (this.keepFrom !== undefined) state.keepFrom = this.keepFrom;
    if (this.started) state.started = true;
    if (this.agentsByCall !== undefined) state.agentsByCall = Object.fromEntries(this.agentsByCall);
    return state;
  }

  decode(value: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    if (!isObject(value)) return entry;
    // Only ASCII is compared or checked here (types, UUIDs, error codes); what is kept is read through `text`.
    const text = textReader(latin1);
    const breaks = schemaBreaks(value);
    if (breaks !== undefined) entry.schemaBreaks = breaks;
    // The first entry of the file (a repair decodes the lines it writes one by one, at their place
    // in the output) must be session.start: the header. A later one the client passes over.
    const first = index === 0 && !this.started;
    this.started = true;
    if (first && value.type === SESSION_START) {
      entry.kind = 'header';
      entry.header = { valid: true, id: isObject(value.data) ? text(value.data.sessionId) : undefined };
      return entry;
    }
    // The client replays events in file order: a parentId that names no event, an earlier one or
    // a copy's changes nothing it sends (tried), so entries are named by position, as Codex's are.
    const id = positionalId(index);
    entry.id = id;
    entry.linksToPrevious = true;
    entry.kind = 'state';
    const data = value.data;
    if (!isObject(data) || value.ephemeral === true) return entry;
    const agent = this.agentOf(value, data, text);
    if (agent !== undefined) {
      decodeAgentEvent(value.type, data, entry, agent, text);
      return entry;
    }
    if (this.keepFrom === '') this.keepFrom = id;
    if (value.type === COMPACTION_START) this.keepFrom = this.calling?.id ?? '';
    else if (value.type === COMPACTION_COMPLETE && data.success === true) {
      entry.kind = 'compaction';
      entry.pointer = DATA;
      entry.inContext = true;
      if (this.keepFrom !== undefined && this.keepFrom !== id) entry.firstKeptId = this.keepFrom;
      this.keepFrom = undefined;
    } else if (value.type === USER_MESSAGE) {
      message(entry);
      entry.role = 'user';
      if (typeof data.content === 'string' && isBlank(data.content, latin1)) entry.blankText = true;
    } else if (value.type === ASSISTANT_MESSAGE) {
      message(entry);
      entry.role = 'assistant';
      this.decodeAssistant(data, entry, text);
    } else if (value.type === TOOL_COMPLETE) {
      message(entry);
      entry.role = 'toolResult';
      const result = completion(data, text);
      entry.toolResults = [result];
      // Gone once all are answered, so the state between turns is the same everywhere (see startsAfresh).
      if (typeof data.toolCallId === 'string' && this.calling?.open.delete(result.callId ?? '') && this.calling.open.size === 0) this.calling = undefined;
    } else if (value.type === USAGE_RECORD) entry.usage = copilotUsage(data);
    if (entry.inContext) noteCopilotSize(data, entry, latin1);
    return entry;
  }

  private decodeAssistant(data: Json, entry: Entry, text: TextReader): void {
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    entry.blockCount = requests.length;
    if (requests.length > 0) {
      const calls: ToolCallRef[] = [];
      requests.forEach((request, i) => calls.push(readCall(request, i, text)));
      entry.toolCalls = calls;
      entry.outcome = 'toolUse';
      const open = new Set<string>();
      for (const call of calls) if (call.id !== undefined) open.add(call.id);
      this.calling = open.size > 0 ? { id: entry.id!, open } : undefined;
    } else entry.outcome = 'complete';
    const model = typeof data.model === 'string' ? text(data.model) ?? '' : undefined;
    if (model !== undefined && model !== this.model) {
      const before = this.model === undefined ? undefined : providerOfModel(this.model);
      this.model = model;
      entry.model = model;
      const now = providerOfModel(model);
      if (now !== before) entry.provider = now;
    }
  }

  /**
   * The sub-agent an event belongs to, named as the client names it (its `agentId`, else
   * `data.agentId`, else the task call that runs it, `data.parentToolCallId`; the client leaves
   * all of them out of the main conversation, tried), undefined for the main agent's. An event
   * that names both the agent and its task call (`subagent.started`, a sub-agent's own events)
   * teaches which agent a call runs, so its events that name only the call join that agent.
   */
  private agentOf(value: Json, data: Json, text: TextReader): string | undefined {
    const id = text(value.agentId) ?? text(data.agentId);
    const call = text(data.parentToolCallId) ?? (value.type === SUBAGENT_STARTED ? text(data.toolCallId) : undefined);
    if (id !== undefined && call !== undefined && this.agentsByCall?.get(call) !== id) (this.agentsByCall ??= new Map()).set(call, id);
    if (id !== undefined || call === undefined || value.type === SUBAGENT_STARTED) return id;
    return this.agentsByCall?.get(call) ?? call;
  }
}

/**
 * A sub-agent's message, in its own conversation: never in the main agent's context (inContext
 * stays false), and it leaves the main agent's calls, compactions and model alone.
 */
function decodeAgentEvent(type: unknown, data: Json, entry: Entry, agent: string, text: TextReader): void {
  if (type !== USER_MESSAGE && type !== ASSISTANT_MESSAGE && type !== TOOL_COMPLETE) return;
  entry.kind = 'message';
  entry.pointer = DATA;
  entry.agent = intern(agent);
  if (type === USER_MESSAGE) entry.role = 'user';
  else if (type === ASSISTANT_MESSAGE) {
    entry.role = 'assistant';
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    entry.blockCount = requests.length;
    if (requests.length > 0) entry.toolCalls = requests.map((request, i) => readCall(request, i, text));
    entry.outcome = requests.length > 0 ? 'toolUse' : 'complete';
  } else {
    entry.role = 'toolResult';
    entry.toolResults = [completion(data, text)];
  }
}

/** A completion answers the call it names; the runtime's own failed one for an interrupted call is synthetic. */
function completion(data: Json, text: TextReader): ToolResultRef {
  const error = isObject(data.error) ? data.error : undefined;
  return { callId: text(data.toolCallId), pointer: DATA, synthetic: data.success === false && error?.code === INTERRUPTED };
}

function message(entry: Entry): void {
  entry.kind = 'message';
  entry.pointer = DATA;
  entry.inContext = true;
}

/** A tool request: `{toolCallId, name, arguments, …}`; whatever is missing is said. */
function readCall(request: unknown, i: number, text: TextReader): ToolCallRef {
  const block = isObject(request) ? request : {};
  const id = text(block.toolCallId);
  const name = typeof block.name === 'string' ? intern(text(block.name) ?? '') : undefined;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (block.arguments === undefined || block.arguments === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer: callPointer(i), blockIndex: i };
  if (missing.length > 0) call.missing = missing;
  return call;
}
