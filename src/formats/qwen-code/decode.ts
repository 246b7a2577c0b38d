import { Entry, type ToolCallRef } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { imageRef } from '../images.js';
import { indexedPointers, intern } from '../intern.js';
import { isObject, nonEmptyString, textReader, type Json, type TextReader } from '../json.js';
import { readParts, type PartReader } from '../gemini-parts.js';
import { addPartsSize } from '../gemini-parts-size.js';
import { addSize } from '../../model/size/facts.js';
import { jsonSize, usageTotal } from '../json-size.js';
import { qwenProvider } from './provider.js';

/** Record types whose `message` Qwen Code sends to the model. */
const MESSAGE_TYPES = new Set(['user', 'assistant', 'tool_result']);

/**
 * System subtypes Qwen Code leaves out of the `parentUuid` chain when it picks the newest record
 * and walks back (`isTranscriptConversationRecord`): session artifacts and managed-session bookkeeping.
 */
const OUTSIDE_CHAIN = new Set(['session_artifact_event', 'session_artifact_snapshot', 'session_sources_snapshot', 'managed_session_header_v1', 'managed_session_event_v1', 'managed_session_commit_v1']);

const partPointer = indexedPointers('/message/parts');

export interface QwenDecoderState {
  /** The last auth type the session's telemetry recorded. */
  authType?: string;
  /** The provider of the last assistant turn, so only a change is written down (see Entry.provider). */
  provider?: string;
}

/**
 * Qwen Code records: a `uuid` / `parentUuid` chain (Claude Code's envelope) around Gemini
 * `Content` messages. Calls are `functionCall` parts of `assistant` records, results
 * `functionResponse` parts of `tool_result` records; `system` records are bookkeeping, except a
 * `chat_compression` whose `compressedHistory` replaces everything before it.
 */
export class QwenDecoder implements Decoder {
  readonly readsLatin1 = true;
  private previous: Entry | undefined;
  private authType: string | undefined;
  private provider: string | undefined;
  private model: string | undefined;
  private window: number | undefined;

  constructor(state?: QwenDecoderState) {
    this.authType = state?.authType;
    this.provider = state?.provider;
  }

  state(): QwenDecoderState {
    return { authType: this.authType, provider: this.provider };
  }

  decode(value: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    if (!isObject(value)) return entry;
    // Types and subtypes are compared as ASCII; what is kept or trimmed is read as UTF-8 (see Decoder.decode).
    const text = textReader(latin1);
    const id = text(value.uuid);
    if (value.type === 'system') this.noteAuthType(value.systemPayload, text);
    if (id === undefined || (value.type === 'system' && typeof value.subtype === 'string' && OUTSIDE_CHAIN.has(value.subtype))) return entry;
    entry.id = id;
    const previous = this.previous;
    this.previous = entry;
    const parent = text(value.parentUuid) ?? null;
    entry.parentId = parent !== null && parent === previous?.id ? previous.id : parent;
    entry.kind = 'state';
    if (typeof value.type === 'string' && MESSAGE_TYPES.has(value.type) && isObject(value.message) && Array.isArray(value.message.parts)) {
      this.decodeMessage(value, value.message.parts, entry, latin1);
    } else if (value.type === 'system' && value.subtype === 'chat_compression' && isObject(value.systemPayload) && value.systemPayload.compressedHistory) {
      // The client sends the compressed history in place of everything before this record.
      entry.kind = 'compaction';
      entry.pointer = '/systemPayload';
      entry.inContext = true;
      addSize(entry, 'text', jsonSize(value.systemPayload.compressedHistory, latin1));
    }
    return entry;
  }

  /** The auth type of an API response the telemetry logged: whose API the turns after it talk to. */
  private noteAuthType(payload: unknown, text: TextReader): void {
    if (!isObject(payload) || !isObject(payload.uiEvent)) return;
    const authType = payload.uiEvent.auth_type;
    if (typeof authType === 'string') this.authType = text(authType) ?? authType;
  }

  private decodeMessage(value: Json, parts: unknown[], entry: Entry, latin1: boolean): void {
    entry.kind = 'message';
    entry.pointer = '/message';
    // A realtime message is shown, never sent (the client skips it when it rebuilds the history).
    entry.inContext = value.subtype !== 'realtime_message';
    entry.role = value.type === 'assistant' ? 'assistant' : 'user';
    if (entry.role === 'assistant') this.markProvider(value, entry);
    readParts(entry, parts, PARTS, entry.index, latin1);
    if (entry.inContext) this.noteSize(value, parts, entry, latin1);
    if (entry.role === 'assistant' && parts.length > 0) entry.outcome = entry.toolCalls !== undefined ? 'toolUse' : 'complete';
  }

  /**
   * What the message sends (see Entry.sizeBytes), the usage its response recorded, and the model
   * and the window Qwen Code ran it with (`contextWindowSize`, its setting or its own table's), where
   * either changes.
   */
  private noteSize(value: Json, parts: unknown[], entry: Entry, latin1: boolean): void {
    addPartsSize(entry, parts, latin1, partPointer);
    if (entry.role !== 'assistant') return;
    if (isObject(value.usageMetadata)) entry.usage = usageTotal(value.usageMetadata.promptTokenCount);
    if (typeof value.model === 'string' && value.model !== this.model) {
      this.model = value.model;
      this.window = undefined;
      entry.model = textReader(latin1)(value.model);
    }
    const window = value.contextWindowSize;
    if (typeof window === 'number' && Number.isSafeInteger(window) && window > 0 && window !== this.window) {
      this.window = window;
      entry.contextWindow = window;
    }
  }

  private markProvider(value: Json, entry: Entry): void {
    const provider = qwenProvider(this.authType, value.model);
    if (provider === this.provider) return;
    this.provider = provider;
    entry.provider = provider;
  }
}

function readCall(call: Json, pointer: string, blockIndex: number): ToolCallRef {
  const id = nonEmptyString(call.id);
  const name = typeof call.name === 'string' ? intern(call.name) : undefined;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  const ref: ToolCallRef = { id, name, pointer, blockIndex };
  if (missing.length > 0) ref.missing = missing;
  return ref;
}

/** Qwen Code's parts: calls in assistant records, responses in tool_result records, inline images. */
const PARTS: PartReader = {
  pointer: partPointer,
  call: readCall,
  response: (response, at) => ({ callId: nonEmptyString(response.id), pointer: at, name: typeof response.name === 'string' ? response.name : undefined, synthetic: false }),
  image: (entry, data, at, i) => {
    const image = imageRef(data.data, data.mimeType, at, i);
    if (image !== undefined) entry.images = [...(entry.images ?? []), image];
  },
};
