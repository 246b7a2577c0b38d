import { Entry, positionalId, type ToolCallRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { isObject, nonEmptyString, textReader, utf8Value, type Json, type TextReader } from '../json.js';
import { intern } from '../intern.js';
import { dataUrlImage } from '../images.js';
import { ABORTED_OUTPUT, CALL_ITEMS, MODEL_ITEMS, OUTPUT_ITEMS, SERVER_EXECUTION, type CallItem } from './items.js';
import { replacementHistoryProblems } from './replacement-history.js';
import { sessionMetaProblem } from './session-meta.js';
import { customCallId, inferItemType, unreadableParts } from './lost-type.js';
import { codexUsage, codexWindow, noteCodexCompactionSize, noteCodexItemSize } from './size.js';

/** Every line is one Responses API item; its pointer is the whole item. */
const ITEM = '/payload';

/**
 * The group of every item the model generated (reasoning, assistant text, tool calls). The
 * Responses API takes history as a flat list of items, and an assistant's response is the run of
 * model items between two inputs (a user message, a tool output): lines of one group that follow
 * each other count as one message, so the outputs of parallel calls follow that whole run, in
 * any order, as the API accepts. Event lines in between are not history and do not end the run.
 * The group is one constant rather than one per response because repair decodes an edited line
 * on its own, without the lines before it: a per-response id could not be found again there.
 */
const MODEL_OUTPUT = 'codex:model-output';

export interface CodexDecoderState {
  sawHeader: boolean;
  /** Call ids of custom tool calls so far, which name the kind of an output that lost its type. */
  customCalls?: string[];
}

/**
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type,
 * payload}` lines. The first `session_meta` is the header (later ones are the parent's header,
 * copied into a forked or resumed rollout). A rollout is linear: each line follows the one before
 * it, named by its position as pi's v1 files are. `response_item`s are the history Codex sends
 * back; `event_msg` copies, `turn_context`, ghost snapshots and unknown items are bookkeeping
 * the model never sees; `compacted` replaces the history before it. Paginated rollouts number
 * every line (`ordinal`, an unsigned integer: anything else Codex cannot read).
 */
export class CodexDecoder implements Decoder {
  readonly readsLatin1 = true;
  private sawHeader: boolean;
  private readonly customCalls: Set<string>;
  private model: string | undefined;
  private window: number | undefined;

  constructor(state?: CodexDecoderState) {
    this.sawHeader = state?.sawHeader ?? false;
    this.customCalls = new Set(state?.customCalls);
  }

  state(): CodexDecoderState {
    return this.customCalls.size === 0 ? { sawHeader: this.sawHeader } : { sawHeader: this.sawHeader, customCalls: [...this.customCalls] };
  }

  decode(read: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    if (!isObject(read)) return entry;
    // Types, roles and markers are compared as ASCII; what is kept or trimmed is read as UTF-8 (see Decoder.decode).
    // Headers, compactions and items that lost their type are read through and through: few, and read by more code.
    const whole = latin1 && (read.type === 'session_meta' || read.type === 'compacted' || (isObject(read.payload) && read.payload.type === undefined));
    const value = whole ? (utf8Value(read) as Json) : read;
    const text = textReader(latin1 && !whole);
    if (typeof value.ordinal === 'number' && Number.isSafeInteger(value.ordinal) && value.ordinal >= 0) entry.sequence = value.ordinal;
    if (value.type === 'session_meta' && !this.sawHeader) {
      this.sawHeader = true;
      const problem = sessionMetaProblem(value.payload);
      entry.kind = 'header';
      entry.header = { valid: problem === undefined, problem, id: isObject(value.payload) ? nonEmptyString(value.payload.id) : undefined };
      return entry;
    }
    entry.id = positionalId(index);
    entry.linksToPrevious = true;
    entry.kind = 'state';
    const payload = value.payload;
    if (!isObject(payload)) return entry;
    if (value.type === 'response_item') {
      if (payload.type === undefined) entry.lostType = inferItemType(payload, this.customCalls) ?? '';
      else {
        decodeItem(payload, entry, text);
        if (entry.inContext) noteCodexItemSize(payload, entry, latin1 && !whole);
      }
      const custom = customCallId(payload);
      if (custom !== undefined) this.customCalls.add(text(custom) ?? custom);
    }
    else if (value.type === 'event_msg' && payload.type === 'token_count') {
      entry.usage = codexUsage(payload);
      // The window Codex ran the model with (its table's, or the `model_context_window` setting), where it changes.
      const window = codexWindow(payload);
      if (window !== undefined && window !== this.window) {
        this.window = window;
        entry.contextWindow = window;
      }
    }
    else if (value.type === 'turn_context' && typeof payload.model === 'string' && payload.model !== this.model) {
      this.model = payload.model;
      this.window = undefined;
      entry.model = text(payload.model);
    }
    else if (value.type === 'event_msg' && payload.type === 'thread_rolled_back') {
      if (typeof payload.num_turns === 'number' && Number.isSafeInteger(payload.num_turns) && payload.num_turns > 0) entry.rollsBackTurns = payload.num_turns;
    }
    else if (value.type === 'compacted' && typeof payload.message === 'string') {
      entry.kind = 'compaction';
      entry.pointer = ITEM;
      entry.inContext = true;
      const problems = Array.isArray(payload.replacement_history) ? replacementHistoryProblems(payload.replacement_history) : [];
      if (problems.length > 0) entry.keptHistoryProblems = problems;
      noteCodexCompactionSize(payload, entry, false);
    }
    return entry;
  }
}

/**
 * One history item. Items Codex cannot read (a message without role or content, an unknown type,
 * a ghost snapshot) stay bookkeeping. A tool search the provider ran, and a search output naming
 * no call, are kept by Codex as they are: parts of the response, with nothing to pair.
 */
function decodeItem(item: Json, entry: Entry, text: TextReader): void {
  const type = typeof item.type === 'string' ? item.type : undefined;
  if (type === undefined) return;
  const call = CALL_ITEMS.get(type);
  if (type === 'message') {
    if (typeof item.role !== 'string' || !Array.isArray(item.content)) return;
    // A part Codex cannot read spoils the whole item: the line stays bookkeeping, as Codex skips it.
    const unreadable = unreadableParts(item.role, item.content);
    if (unreadable !== undefined) {
      entry.unreadableParts = unreadable.map((part) => ({ ...part, type: text(part.type)! }));
      return;
    }
    history(entry);
    if (item.role === 'assistant') modelOutput(entry);
    else if (item.role === 'user') {
      entry.role = isContextual(item.content, text) ? 'other' : 'user';
      readImages(item.content, entry, text);
    }
    else {
      entry.role = 'other';
      // Codex leaves system messages out of the history it sends (`is_api_message`).
      entry.inContext = item.role !== 'system';
    }
  } else if (call !== undefined && item.execution !== SERVER_EXECUTION) {
    history(entry);
    modelOutput(entry);
    entry.toolCalls = [readCall(item, call, text)];
  } else if (OUTPUT_ITEMS.has(type) && item.execution !== SERVER_EXECUTION && (type !== 'tool_search_output' || item.call_id != null)) {
    history(entry);
    entry.role = 'toolResult';
    entry.toolResults = [{ callId: text(item.call_id), pointer: ITEM, synthetic: item.output === ABORTED_OUTPUT }];
    // An output may be a list of content items, images among them (a screenshot a tool took).
    if (Array.isArray(item.output)) readImages(item.output, entry, text, `${ITEM}/output`, true);
  } else if (MODEL_ITEMS.has(type) || call !== undefined || OUTPUT_ITEMS.has(type)) {
    history(entry);
    modelOutput(entry);
    // Encrypted reasoning verifies only for the Responses API route and model that made it.
    if (type === 'reasoning' && nonEmptyString(item.encrypted_content) !== undefined) entry.signedThinking = true;
  }
}

/** Images pasted into a prompt: `input_image` parts with their bytes in a data URL. */
function readImages(content: unknown[], entry: Entry, text: TextReader, pointer = `${ITEM}/content`, inToolResult = false): void {
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    if (!isObject(part) || part.type !== 'input_image') continue;
    const image = dataUrlImage(text(part.image_url) ?? part.image_url, `${pointer}/${i}`, i, inToolResult);
    if (image !== undefined) entry.images = [...(entry.images ?? []), image];
  }
}

/**
 * Context Codex writes as a user message (the environment, AGENTS.md instructions, an abort
 * notice): sent to the model, but no prompt of the user's, so it starts no turn (codex-rs
 * treats such messages apart when it counts turns).
 */
const CONTEXTUAL = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions', '<turn_aborted>', '<user_shell_command>'];

function isContextual(content: unknown[], text: TextReader): boolean {
  const first = content[0];
  if (!isObject(first) || typeof first.text !== 'string') return false;
  // Whitespace trimStart knows may be more than ASCII: the text as UTF-8 (the same string when it is ASCII).
  const start = (text(first.text) ?? '').trimStart();
  return CONTEXTUAL.some((prefix) => start.startsWith(prefix));
}

function history(entry: Entry): void {
  entry.kind = 'message';
  entry.pointer = ITEM;
  entry.inContext = true;
  entry.blockCount = 1;
}

function modelOutput(entry: Entry): void {
  entry.role = 'assistant';
  entry.group = MODEL_OUTPUT;
}

/**
 * A call with whatever Codex could not read marked missing: its `String` fields (`call_id`,
 * `name`, the arguments of a function or custom tool) must be strings, or Codex skips the line
 * and the call does not exist for it.
 */
function readCall(item: Json, shape: CallItem, text: TextReader): ToolCallRef {
  const id = text(item.call_id);
  const written = shape.name ?? item.name;
  const name = typeof written === 'string' ? intern(text(written) ?? '') : undefined;
  const args = item[shape.arguments];
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (shape.textArguments ? typeof args !== 'string' : args === undefined || args === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer: ITEM, blockIndex: 0 };
  if (missing.length > 0) call.missing = missing;
  return call;
}
