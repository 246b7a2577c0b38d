/**
 * The write gate of the OpenClaw plugin (`before_message_write`, OpenClaw 2026.9.6): it sees
 * each message before OpenClaw appends it to the session file and can block it, but cannot
 * hold one back and write it later, so the full pair-atomic buffer stays in OpenClaw's core.
 * What it can stop at the door is what providers reject later:
 * - a tool result whose call this session never wrote, or wrote and already answered (an
 *   orphan: "unexpected `tool_use_id` found in `tool_result` blocks");
 * - a blank user or assistant message (an empty error turn, an empty text).
 * The message is read by the pi format (messageShape); this keeps the calls each session left open.
 */
import { messageShape } from '../formats/pi/message-shape.js';

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
    const shape = messageShape(write.message);
    if (shape === undefined) return undefined;
    const key = write.sessionKey ?? write.agentId ?? '';
    const known = this.open.get(key);
    const calls = known ?? new Set<string>();
    this.open.set(key, calls);
    if (shape.kind === 'result') {
      if (known === undefined) return undefined;
      if (shape.callId === undefined || !calls.delete(shape.callId)) return { block: true };
      return undefined;
    }
    if (shape.kind === 'other') return undefined;
    if (shape.blank) return { block: true };
    for (const id of shape.callIds) calls.add(id);
    return undefined;
  }

  /** A session that ended is forgotten. */
  forget(sessionKey: string | undefined): void {
    this.open.delete(sessionKey ?? '');
  }
}
