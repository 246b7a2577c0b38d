import { Entry, type ImageRef, type Outcome, type ToolCallRef, type ServerToolRef, type ToolResultRef } from '../../model/entry.js';
import { imageRef } from '../images.js';
import type { Decoder } from '../format.js';
import { endsInWhitespace, isBlank, isBlankTextBlock, isObject, nonEmptyString, textIn, textReader, withUtf8Fields, type Json, type TextReader } from '../json.js';
import { indexedPointers } from '../intern.js';
import { noteClaudeCodeSize } from './size.js';

/** Line types that take part in the conversation DAG (they carry uuid / parentUuid). */
const MESSAGE_TYPES = new Set(['user', 'assistant']);

const OUTCOMES: Record<string, Outcome> = {
  end_turn: 'complete',
  stop_sequence: 'complete',
  tool_use: 'toolUse',
  max_tokens: 'truncated',
  pause_turn: 'complete',
  refusal: 'complete',
};

const blockPointer = indexedPointers('/message/content');

/**
 * Claude Code lines: `user` / `assistant` messages in a `uuid` / `parentUuid` DAG, one content
 * block per assistant line (lines of one response share `message.id`), tool results as
 * `tool_result` blocks inside `user` lines; everything else is bookkeeping.
 */
export class ClaudeCodeDecoder implements Decoder {
  readonly readsLatin1 = true;
  /** The last conversation line: most lines name it as parent and share its message id, so its strings are reused. */
  private previous: Entry | undefined;
  private model: string | undefined;

  decode(value: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    if (!isObject(value)) return entry;
    // Types, stop reasons and markers are compared as ASCII; what is kept or trimmed is read as UTF-8 (see Decoder.decode).
    const text = textReader(latin1);
    const id = text(value.uuid);
    if (id === undefined) return entry; // summary, file-history-snapshot, queue-operation, titles: no place in the DAG
    const unreadable = unreadableParts(value);
    if (unreadable !== undefined) {
      // Claude Code does not load the line at all: no row, no uuid, nothing hangs on it and it is no leaf.
      entry.unreadableParts = unreadable;
      return entry;
    }
    entry.id = id;
    // Claude Code always writes parentUuid (null for a root); lines without it come from other
    // tools' hand-made files, which list the conversation in order.
    const previous = this.previous;
    this.previous = entry;
    if ('parentUuid' in value) {
      const parent = text(value.parentUuid) ?? null;
      entry.parentId = parent !== null && parent === previous?.id ? previous.id : parent;
    } else entry.linksToPrevious = true;
    entry.kind = 'state';
    const logical = text(value.logicalParentUuid);
    if (logical !== undefined) entry.logicalParentId = logical;
    if (value.type === 'system' && value.subtype === 'compact_boundary') {
      const cleared = preservedTail(value.compactMetadata, text);
      if (cleared !== undefined) entry.clearsUsageThrough = cleared;
    }
    if (typeof value.type === 'string' && MESSAGE_TYPES.has(value.type) && isObject(value.message)) {
      decodeMessage(value, value.message, entry, latin1, text);
      if (entry.inContext) noteClaudeCodeSize(value.message, entry, latin1);
      if (entry.role === 'assistant' && entry.inContext) this.markModel(value.message, entry, latin1);
    }
    if (entry.group !== undefined && entry.group === previous?.group) entry.group = previous.group;
    return entry;
  }

  /** The model, noted where it changes (see Entry.model). */
  private markModel(message: Json, entry: Entry, latin1: boolean): void {
    if (typeof message.model !== 'string' || message.model === this.model) return;
    this.model = message.model;
    entry.model = textIn(message.model, latin1);
  }

  state(): undefined {
    return undefined;
  }
}

/**
 * The last message a compact boundary keeps (`compactMetadata.preservedMessages.uuids`): when
 * Claude Code 2.1.328 resumes past such a boundary it relinks those messages after the summary
 * and sets their recorded usage to zero (the minified `w_r`), so its count of the context starts
 * at the boundary again.
 */
function preservedTail(metadata: unknown, text: TextReader): string | undefined {
  if (!isObject(metadata) || !isObject(metadata.preservedMessages)) return undefined;
  const { uuids } = metadata.preservedMessages;
  if (!Array.isArray(uuids) || uuids.length === 0 || !uuids.every((id) => typeof id === 'string')) return undefined;
  return text(uuids[uuids.length - 1]);
}

/**
 * Content parts of a message line that are not blocks (a bare string, a number). Claude Code
 * 2.1.328 skips such a line when it resumes, even as the last line or a parent of later lines:
 * its request held neither the line nor an answer to it.
 */
function unreadableParts(value: Json): Array<{ pointer: string; type: string }> | undefined {
  if (typeof value.type !== 'string' || !MESSAGE_TYPES.has(value.type) || !isObject(value.message) || !Array.isArray(value.message.content)) return undefined;
  const parts: Array<{ pointer: string; type: string }> = [];
  value.message.content.forEach((part, i) => {
    if (!isObject(part)) parts.push({ pointer: blockPointer(i), type: part === null ? 'null' : Array.isArray(part) ? 'array' : typeof part });
  });
  return parts.length > 0 ? parts : undefined;
}

function decodeMessage(line: Json, message: Json, entry: Entry, latin1: boolean, text: TextReader): void {
  entry.kind = 'message';
  entry.pointer = '/message';
  // A compaction's summary is hidden from the screen but sent: Claude Code 2.1.328 opens its request with it (tried).
  entry.inContext = line.isVisibleInTranscriptOnly !== true || line.isCompactSummary === true;
  const content = message.content;
  if (line.type === 'assistant') {
    entry.role = 'assistant';
    entry.group = text(message.id);
    entry.outcome = typeof message.stop_reason === 'string' ? OUTCOMES[message.stop_reason] ?? 'unknown' : undefined;
    // What an API failure leaves behind: a synthetic line Claude Code does not send back.
    if (line.isApiErrorMessage === true || message.model === '<synthetic>') {
      entry.transcriptOnly = true;
      entry.inContext = false;
    }
  } else {
    entry.role = 'user';
  }
  if (typeof content === 'string') {
    const blank = isBlank(content, latin1);
    if (blank) entry.blankText = true;
    // Anthropic reads string content as one text block and words a whitespace-only one apart.
    if (content !== '' && blank) entry.whitespaceTextBlocks = ['/message/content'];
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
  const blank: string[] = [];
  const server: ServerToolRef[] = [];
  let reasoning = 0;
  content.forEach((block, i) => {
    if (!isObject(block)) return;
    if (block.type === 'tool_use') calls.push(readCall(block, i, text));
    else if (block.type === 'tool_result') {
      if (results.length < i) entry.resultsAfterOther = true;
      results.push({ callId: text(block.tool_use_id), pointer: blockPointer(i), synthetic: false });
      // Images a tool returned sit inside its result block; Anthropic checks them there too.
      if (Array.isArray(block.content)) {
        block.content.forEach((inner, k) => {
          if (isObject(inner) && inner.type === 'image') pushImage(entry, imageOf(inner, `${blockPointer(i)}/content/${k}`, i, latin1, true));
        });
      }
    }
    else if (block.type === 'image') pushImage(entry, imageOf(block, blockPointer(i), i, latin1));
    else if (block.type === 'server_tool_use') server.push({ kind: 'call', id: text(block.id), type: block.type, pointer: blockPointer(i), blockIndex: i });
    else if (typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
      server.push({ kind: 'result', id: text(block.tool_use_id), type: text(block.type)!, pointer: blockPointer(i), blockIndex: i });
    }
    else if (isBlankTextBlock(block, latin1)) {
      blank.push(blockPointer(i));
      if (typeof block.text === 'string' && block.text !== '') (entry.whitespaceTextBlocks ??= []).push(blockPointer(i));
    }
    else if (block.type === 'thinking' && nonEmptyString(block.signature) !== undefined) entry.signedThinking = true;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') reasoning++;
  });
  if (reasoning > 0 && reasoning === content.length && entry.role === 'assistant') entry.reasoningOnly = true;
  // slice(): arrays grown by push keep spare capacity, which adds up over hundreds of thousands of lines.
  if (calls.length > 0) entry.toolCalls = calls.slice();
  if (entry.role === 'assistant' && endsInWhitespace(content, latin1)) entry.trailingWhitespace = true;
  if (server.length > 0) entry.serverTools = server.slice();
  if (results.length > 0) {
    entry.role = 'toolResult';
    entry.toolResults = results.slice();
  }
  if (blank.length === content.length && entry.role === 'user') entry.blankText = true;
  else if (blank.length > 0) entry.blankTextBlocks = blank.slice();
}

/** Anthropic's image block: `{type:"image", source:{type:"base64", media_type, data}}`; images by URL have no bytes here. */
function imageOf(block: Json, pointer: string, blockIndex: number, latin1: boolean, inToolResult = false): ImageRef | undefined {
  if (!isObject(block.source) || block.source.type !== 'base64') return undefined;
  const source = latin1 ? withUtf8Fields(block.source) : block.source;
  return imageRef(source.data, source.media_type, pointer, blockIndex, inToolResult);
}

function pushImage(entry: Entry, image: ImageRef | undefined): void {
  if (image !== undefined) entry.images = [...(entry.images ?? []), image];
}

function readCall(block: Json, blockIndex: number, text: TextReader): ToolCallRef {
  const id = text(block.id);
  const name = typeof block.name === 'string' ? text(block.name) ?? '' : undefined;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (block.input === undefined || block.input === null) missing.push('arguments');
  const call: ToolCallRef = { id, name, pointer: blockPointer(blockIndex), blockIndex };
  if (missing.length > 0) call.missing = missing;
  return call;
}
