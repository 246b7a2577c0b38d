import { Entry, positionalId, type ImageRef, type Outcome, type ToolCallRef, type ToolResultRef } from '../../model/entry.js';
import { imageRef } from '../images.js';
import type { Decoder } from '../format.js';
import { intern } from '../intern.js';
import { contentPointer, readToolCall } from './blocks.js';
import { endsInWhitespace, isBlank, isBlankTextBlock, isObject, nonEmptyString, textIn, textReader, withUtf8Fields, type Json, type TextReader } from '../json.js';
import { piProvider } from './provider.js';
import { notePiCustomSize, notePiMessageSize, notePiSummarySize } from './size.js';
import { canonicalId, canonicalResult, RESULT_ID_ALIASES } from './canonical.js';
import {
  PI_ENTRY_TYPES,
  SYNTHETIC_RESULT_TEXTS,
  TRANSCRIPT_ONLY_MODELS,
  TRANSCRIPT_ONLY_PROVIDERS,
} from './markers.js';

const OUTCOMES: Record<string, Outcome> = {
  stop: 'complete',
  toolUse: 'toolUse',
  length: 'truncated',
  error: 'error',
  aborted: 'aborted',
  injected: 'injected',
};

const UNSEEN = Symbol('unseen');

const STATE_TYPES = new Set(['model_change', 'thinking_level_change', 'custom', 'label', 'session_info']);

export interface PiDecoderState {
  version: number | undefined;
  sawHeader: boolean;
}

export class PiDecoder implements Decoder {
  readonly readsLatin1 = true;
  /** Header version; undefined until a header is seen. Files without version are v1. */
  private version: number | undefined;
  private sawHeader = false;
  /** The `api` and `provider` of the last assistant message, so only a change is written down (see Entry.provider). */
  private api: unknown = UNSEEN;
  private provider: unknown = UNSEEN;
  private model: unknown = UNSEEN;

  constructor(state?: PiDecoderState) {
    if (state !== undefined) ({ version: this.version, sawHeader: this.sawHeader } = state);
  }

  state(): PiDecoderState {
    return { version: this.version, sawHeader: this.sawHeader };
  }

  decode(value: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    if (!isObject(value)) return entry;
    // Types, roles, stop reasons and markers are compared as ASCII; what is kept or trimmed is read as UTF-8 (see Decoder.decode).
    const text = textReader(latin1);
    if (value.type === 'session') return this.header(value, entry, text);
    // Lines of types pi does not write (other tools' bookkeeping) stay outside the tree.
    if (typeof value.type === 'string' && PI_ENTRY_TYPES.has(value.type)) this.link(value, entry, text);
    switch (value.type) {
      case 'message':
        decodeMessage(value.message, entry, latin1);
        if (entry.role === 'assistant') {
          this.markProvider(value.message as Json, entry, latin1);
          this.markModel(value.message as Json, entry, latin1);
        }
        break;
      case 'compaction':
        entry.kind = 'compaction';
        entry.inContext = true;
        entry.firstKeptId = this.firstKept(value, text);
        notePiSummarySize(value, entry, latin1);
        break;
      case 'branch_summary':
        entry.kind = 'branch-summary';
        entry.inContext = nonEmptyString(value.summary) !== undefined;
        notePiSummarySize(value, entry, latin1);
        break;
      case 'custom_message':
        entry.kind = 'context';
        entry.role = 'other';
        entry.inContext = true;
        notePiCustomSize(value, entry, latin1);
        break;
      default:
        if (typeof value.type === 'string' && STATE_TYPES.has(value.type)) entry.kind = 'state';
    }
    return entry;
  }

  /** The model, noted where it changes (see Entry.model). */
  private markModel(message: Json, entry: Entry, latin1: boolean): void {
    if (entry.transcriptOnly || typeof message.model !== 'string' || message.model === this.model) return;
    this.model = message.model;
    entry.model = textIn(message.model, latin1);
  }

  /** Two string compares per assistant message; the mapping runs only when the model was switched. */
  private markProvider(message: Json, entry: Entry, latin1: boolean): void {
    // Delivery mirrors and injected notices never reach a provider.
    if (entry.transcriptOnly) return;
    const api = typeof message.api === 'string' ? textIn(message.api, latin1) : message.api;
    const provider = typeof message.provider === 'string' ? textIn(message.provider, latin1) : message.provider;
    if (api === this.api && provider === this.provider) return;
    this.api = api;
    this.provider = provider;
    // The first assistant message of this decoder is marked too: another thread may have read the lines before it.
    entry.provider = piProvider(api, provider);
  }

  private header(value: Json, entry: Entry, text: TextReader): Entry {
    const id = text(value.id);
    const version = typeof value.version === 'number' ? value.version : undefined;
    if (!this.sawHeader) {
      this.sawHeader = true;
      this.version = version ?? 1;
    }
    const problem = id === undefined ? 'its "id" is missing or empty' : undefined;
    entry.kind = 'header';
    entry.header = { valid: problem === undefined, problem, version, id };
    return entry;
  }

  /** Tree links: v2+ entries name their parent; v1 entries (no version) follow file order. */
  private link(value: Json, entry: Entry, text: TextReader): void {
    const id = text(value.id);
    const legacy = this.version !== undefined ? this.version < 2 : id === undefined && !('parentId' in value);
    if (legacy) {
      entry.id = id ?? positionalId(entry.index);
      entry.linksToPrevious = true;
      return;
    }
    if (id !== undefined) entry.id = id;
    if ('parentId' in value) {
      entry.parentId = text(value.parentId) ?? null;
    } else {
      entry.parentMissing = true;
    }
  }

  /** pi's v1 files name the first kept entry by its position among all parsed lines. */
  private firstKept(value: Json, text: TextReader): string | undefined {
    const id = text(value.firstKeptEntryId);
    if (id !== undefined) return id;
    const position = value.firstKeptEntryIndex;
    return typeof position === 'number' && Number.isInteger(position) && position > 0 ? positionalId(position) : undefined;
  }
}

function decodeMessage(message: unknown, entry: Entry, latin1: boolean): void {
  entry.kind = 'message';
  entry.pointer = '/message';
  if (!isObject(message)) return;
  decodeRole(message, entry, latin1);
  if (entry.inContext) notePiMessageSize(message, entry, latin1);
}

function decodeRole(message: Json, entry: Entry, latin1: boolean): void {
  switch (message.role) {
    case 'user':
      entry.role = 'user';
      entry.inContext = true;
      decodeUserContent(message.content, entry, latin1);
      return;
    case 'assistant':
      decodeAssistant(message, entry, latin1);
      return;
    case 'toolResult':
      entry.role = 'toolResult';
      entry.inContext = true;
      // Its ids and name, and a string content, as UTF-8; its content blocks are only compared with ASCII texts.
      entry.toolResults = [decodeToolResult(latin1 ? withUtf8Fields(message) : message)];
      if (Array.isArray(message.content)) readImages(message.content, entry, latin1, true);
      return;
    case 'bashExecution':
      entry.role = 'other';
      entry.inContext = message.excludeFromContext !== true;
      return;
    case 'custom':
    case 'hookMessage':
      entry.role = 'other';
      entry.inContext = true;
      return;
    default:
      entry.kind = 'unknown';
  }
}

function decodeUserContent(content: unknown, entry: Entry, latin1: boolean): void {
  if (typeof content === 'string') {
    if (isBlank(content, latin1)) entry.blankText = true;
    return;
  }
  if (!Array.isArray(content)) return;
  entry.blockCount = content.length;
  const blank = blankTextBlocks(content, latin1);
  if (blank.length === content.length) entry.blankText = true;
  else if (blank.length > 0) entry.blankTextBlocks = blank;
  readImages(content, entry, latin1);
}

/** pi's image blocks (`{type:"image", data, mimeType}`), in user messages and tool results. */
function readImages(content: unknown[], entry: Entry, latin1: boolean, inToolResult = false): void {
  let images: ImageRef[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block) || block.type !== 'image') continue;
    const { data, mimeType } = latin1 ? withUtf8Fields(block) : block;
    const image = imageRef(data, mimeType, contentPointer(i), i, inToolResult);
    if (image !== undefined) (images ??= []).push(image);
  }
  if (images !== undefined) entry.images = images;
}

function blankTextBlocks(content: unknown[], latin1: boolean): string[] {
  let pointers: string[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (isBlankTextBlock(block, latin1)) {
      (pointers ??= []).push(contentPointer(i));
    }
  }
  return pointers ?? NONE;
}

const NONE: string[] = [];

function decodeAssistant(message: Json, entry: Entry, latin1: boolean): void {
  entry.role = 'assistant';
  entry.inContext = true;
  entry.outcome = typeof message.stopReason === 'string' ? OUTCOMES[message.stopReason] ?? 'unknown' : 'unknown';
  const provider = message.provider;
  const model = message.model;
  if (
    entry.outcome === 'injected' ||
    (typeof provider === 'string' &&
      TRANSCRIPT_ONLY_PROVIDERS.has(provider) &&
      typeof model === 'string' &&
      TRANSCRIPT_ONLY_MODELS.has(model))
  ) {
    entry.transcriptOnly = true;
    entry.inContext = false;
  }
  const content = message.content;
  if (!Array.isArray(content)) return;
  entry.blockCount = content.length;
  if (content.length === 0) {
    entry.emptyContent = true;
    return;
  }
  let calls: ToolCallRef[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    const call = readToolCall(block, i, latin1);
    if (call !== undefined) (calls ??= []).push(call);
    else if (isObject(block) && block.type === 'thinking' && nonEmptyString(block.thinkingSignature) !== undefined) entry.signedThinking = true;
  }
  // slice(): arrays grown by push keep spare capacity, which adds up over hundreds of thousands of lines.
  entry.toolCalls = calls?.slice();
  if (endsInWhitespace(content, latin1)) entry.trailingWhitespace = true;
  const blank = blankTextBlocks(content, latin1);
  if (blank.length > 0 && blank.length < content.length) entry.blankTextBlocks = blank;
}

function decodeToolResult(message: Json): ToolResultRef {
  const canonical = typeof message.toolCallId === 'string' && !message.toolCallId.startsWith('functions ') && !hasResultAlias(message) ? undefined : canonicalResult(message);
  const shape = canonical === undefined || canonical.conflict !== undefined ? message : canonical.value;
  const result: ToolResultRef = {
    callId: nonEmptyString(shape.toolCallId) ?? firstResultId(message),
    pointer: '/message',
    name: typeof message.toolName === 'string' ? intern(message.toolName) : undefined,
    namePointer: '/message/toolName',
    synthetic: message.isError === true && isSyntheticResult(message),
  };
  if (canonical?.changes.length) result.changes = canonical.changes;
  if (canonical?.conflict !== undefined) result.conflict = canonical.conflict;
  return result;
}

function hasResultAlias(message: Json): boolean {
  return RESULT_ID_ALIASES.some((field) => message[field] !== undefined);
}

function firstResultId(message: Json): string | undefined {
  for (const field of RESULT_ID_ALIASES) {
    const id = nonEmptyString(message[field]);
    if (id !== undefined) return canonicalId(id);
  }
  return undefined;
}

function isSyntheticResult(message: Json): boolean {
  if (isObject(message.details) && message.details.openclawSyntheticMissingToolResult === true) return true;
  const content = message.content;
  if (typeof content === 'string') return SYNTHETIC_RESULT_TEXTS.has(content);
  return (
    Array.isArray(content) &&
    content.some((block) => isObject(block) && typeof block.text === 'string' && SYNTHETIC_RESULT_TEXTS.has(block.text))
  );
}
