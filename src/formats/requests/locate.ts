import { isObject, type Json } from '../json.js';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './responses.js';
import type { RequestShape } from './shape.js';

/** Where a line's conversation is: the request object holding the list, its pointer, and the shape. */
export interface Located {
  shape: RequestShape;
  request: Json;
  /** Pointer of the request inside the line ('' for the line itself). */
  at: string;
}

/** Block types only Anthropic's Messages API writes into message content. */
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'image', 'document', 'server_tool_use']);

/**
 * The request a line holds, in whichever shape: the line itself, or the request inside a batch
 * line (OpenAI's `{"custom_id","method","url","body":{…}}`, Vertex's `{"request":{…}}`).
 */
export function locate(value: unknown): Located | undefined {
  if (!isObject(value)) return undefined;
  const own = shapeOf(value);
  if (own !== undefined) return { shape: own, request: value, at: '' };
  for (const key of ['body', 'request'] as const) {
    const inner = value[key];
    const shape = isObject(inner) ? shapeOf(inner) : undefined;
    if (shape !== undefined) return { shape, request: inner as Json, at: `/${key}` };
  }
  return undefined;
}

function shapeOf(request: Json): RequestShape | undefined {
  if (Array.isArray(request.contents)) return gemini;
  if (Array.isArray(request.input)) return openaiResponses;
  if (!Array.isArray(request.messages)) return undefined;
  // Both APIs take plain-text conversations alike; Anthropic's own fields and blocks tell them apart.
  return 'system' in request || request.messages.some(speaksAnthropic) ? anthropic : openaiChat;
}

function speaksAnthropic(message: unknown): boolean {
  if (!isObject(message) || !Array.isArray(message.content) || message.role === 'tool' || 'tool_calls' in message) return false;
  return message.content.some((block) => isObject(block) && typeof block.type === 'string' && ANTHROPIC_BLOCKS.has(block.type));
}
