/**
 * One pi message as OpenClaw hands it over before writing it (its plugin's
 * `before_message_write`), read for what the write gate judges: a tool result and the call it
 * answers, or a user or assistant message, whether it is blank, and the calls it makes. OpenClaw
 * still reads the legacy block and id names, so they are read too.
 */
import type { MessageShape } from '../format.js';

const CALL_BLOCKS = new Set(['toolCall', 'toolUse', 'functionCall']);
const RESULT_ID_KEYS = ['toolCallId', 'toolUseId', 'tool_call_id', 'tool_use_id'] as const;

/** `other` for a message of another role (a custom one), undefined for a value that is no message. */
export function messageShape(message: unknown): MessageShape | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role === 'toolResult' || role === 'tool') return { kind: 'result', callId: resultId(message as Record<string, unknown>) };
  if (role !== 'user' && role !== 'assistant') return { kind: 'other' };
  const callIds: string[] = [];
  if (role === 'assistant' && Array.isArray(content)) {
    for (const block of content) {
      const id = typeof block === 'object' && block !== null && CALL_BLOCKS.has((block as { type?: string }).type ?? '') ? (block as { id?: unknown }).id : undefined;
      if (typeof id === 'string' && id !== '') callIds.push(id);
    }
  }
  return { kind: 'turn', blank: isBlank(content), callIds };
}

function resultId(message: Record<string, unknown>): string | undefined {
  for (const key of RESULT_ID_KEYS) if (typeof message[key] === 'string' && message[key] !== '') return message[key];
  return undefined;
}

/** No text but whitespace and nothing else (no call, image or thinking block). */
function isBlank(content: unknown): boolean {
  if (content === undefined || content === null) return true;
  if (typeof content === 'string') return content.trim() === '';
  if (!Array.isArray(content)) return false;
  return content.every((block) => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && String((block as { text?: unknown }).text ?? '').trim() === '');
}
