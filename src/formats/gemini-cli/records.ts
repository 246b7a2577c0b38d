import { isObject, type Json } from '../json.js';

/**
 * The record kinds of a Gemini CLI session line, told apart in the order the client's
 * `loadConversationRecord` (0.61.0) tries them: a rewind, a message (any object with a string
 * `id`), a metadata patch (`$set`), a metadata line (`sessionId` and `projectHash`).
 */
export type RecordKind = 'rewind' | 'message' | 'patch' | 'metadata' | 'checkpoint' | 'other';

/** Besides the session log's records: a `/chat save` checkpoint, a list of Gemini contents (`{role, parts}`) or `{history: [...]}`. */
export function recordKind(value: unknown): RecordKind {
  if (Array.isArray(value)) return value.every(isContent) ? 'checkpoint' : 'other';
  if (!isObject(value)) return 'other';
  if (Array.isArray(value.history) && typeof value.sessionId !== 'string' && value.history.every(isContent)) return 'checkpoint';
  if (typeof value.$rewindTo === 'string') return 'rewind';
  if (typeof value.id === 'string') return 'message';
  if (isObject(value.$set)) return 'patch';
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') return 'metadata';
  return 'other';
}

function isContent(value: unknown): boolean {
  return isObject(value) && (value.role === 'user' || value.role === 'model') && Array.isArray(value.parts);
}

export const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** The model turn the client writes in place of a response that a kill cut short (PR #28700); saved, the model repeats it (PR #28939). */
export const INTERRUPTED_PLACEHOLDER = '[The previous response was interrupted before it completed.]';

/** The error the client records for a tool call it cancels (`createCancelledResult`), with the reason repair gives. */
export const CANCELLED_ERROR = '[Operation Cancelled] The session ended before the tool finished; result written by transcript-doctor.';

/** What the client shows for a part that is not text (`partToString`, verbose): any of them makes a message non-empty. */
const MARKED_PARTS = ['videoMetadata', 'thought', 'codeExecutionResult', 'executableCode', 'fileData', 'functionCall', 'functionResponse', 'inlineData'];

/** A message's content as text, the way the client flattens it (`partListUnionToString`) to decide whether it is sent. */
export function contentText(content: unknown): string {
  if (!content) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (!isObject(content)) return '';
  const marked = MARKED_PARTS.find((key) => content[key] !== undefined);
  if (marked !== undefined) return `[${marked}]`;
  return typeof content.text === 'string' ? content.text : '';
}

/**
 * User text the client never sends back (`isIgnoredUserContent`): nothing, a slash or `?`
 * command, and the context blocks it writes itself.
 */
export function isIgnoredUserText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length === 0 || trimmed.startsWith('/') || trimmed.startsWith('?') || trimmed.startsWith('<session_context>') || trimmed.startsWith('<hook_context>');
}

/** Content as the list of parts the client sends (`ensurePartArray`). */
export function partsOf(content: unknown): unknown[] {
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? { text: part } : part));
  if (typeof content === 'string') return [{ text: content }];
  return [content];
}

/** The `functionResponse` of a part, when it is one. */
export function responseOf(part: unknown): Json | undefined {
  return isObject(part) && isObject(part.functionResponse) ? part.functionResponse : undefined;
}

/** The id of the summary turn a compaction by transcript-doctor writes, from the id of the first message it keeps. */
export function compactionSummaryId(keptId: string): string {
  return `compaction:${keptId}:summary`;
}

/** Whether a message is the summary turn of a compaction by transcript-doctor (see compactionSummaryId). */
export function isCompactionSummary(message: Json): boolean {
  return typeof message.id === 'string' && message.id.startsWith('compaction:') && message.id.endsWith(':summary');
}
