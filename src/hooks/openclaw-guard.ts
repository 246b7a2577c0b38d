/**
 * The write gate of the OpenClaw plugin (`before_message_write`, OpenClaw 2026.9.6): it sees
 * each message before OpenClaw appends it to the session file and can block it, but cannot
 * hold one back and write it later, so the full pair-atomic buffer stays in OpenClaw's core.
 * What it can stop at the door is what providers reject later:
 * - a tool result whose call this session never wrote, or wrote and already answered (an
 *   orphan: "unexpected `tool_use_id` found in `tool_result` blocks");
 * - a blank user or assistant message (an empty error turn, an empty text).
 * Message shapes are pi's, as OpenClaw writes them, with the legacy block and id names
 * OpenClaw still reads.
 */

const CALL_BLOCKS = new Set(['toolCall', 'toolUse', 'functionCall']);
const RESULT_ID_KEYS = ['toolCallId', 'toolUseId', 'tool_call_id', 'tool_use_id'] as const;

export interface MessageWrite {
  message: unknown;
  sessionKey?: string;
  agentId?: string;
}

export type WriteVerdict = { block: true } | undefined;

export class MessageWriteGuard {
  /**
   * Per session, the calls written and not yet answered. A session is known from the first
   * message it writes in this process: a result written before that (the first write after a
   * gateway restart) may answer a call from before, and is let through.
   */
  private readonly open = new Map<string, Set<string>>();

  check(write: MessageWrite): WriteVerdict {
    const message = write.message;
    if (typeof message !== 'object' || message === null) return undefined;
    const { role, content } = message as { role?: unknown; content?: unknown };
    const key = write.sessionKey ?? write.agentId ?? '';
    const known = this.open.get(key);
    const calls = known ?? new Set<string>();
    this.open.set(key, calls);
    if (role === 'toolResult' || role === 'tool') {
      const id = resultId(message as Record<string, unknown>);
      if (known === undefined) return undefined;
      if (id === undefined || !calls.delete(id)) return { block: true };
      return undefined;
    }
    if (role !== 'user' && role !== 'assistant') return undefined;
    if (isBlank(content)) return { block: true };
    if (role === 'assistant' && Array.isArray(content)) {
      for (const block of content) {
        const id = typeof block === 'object' && block !== null && CALL_BLOCKS.has((block as { type?: string }).type ?? '') ? (block as { id?: unknown }).id : undefined;
        if (typeof id === 'string' && id !== '') calls.add(id);
      }
    }
    return undefined;
  }

  /** A session that ended is forgotten. */
  forget(sessionKey: string | undefined): void {
    this.open.delete(sessionKey ?? '');
  }
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
