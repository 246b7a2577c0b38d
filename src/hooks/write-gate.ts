/**
 * The write gate of an agent's plugin that sees each message before the agent appends it to the
 * session file and can block it, but cannot hold one back and write it later (OpenClaw's
 * `before_message_write`, OpenClaw 2026.9.6), so the full pair-atomic buffer stays in the agent's
 * core. What it can stop at the door is what providers reject later:
 * - a tool result whose call this session never wrote, or wrote and already answered (an
 *   orphan, which providers reject as an unexpected result);
 * - a blank user or assistant message (an empty error turn, an empty text).
 * The message is read by the agent's format (TranscriptFormat.messageShape); this keeps the calls
 * each session left open.
 */
import { agentNamed } from '../agents/index.js';
import type { MessageShape } from '../formats/format.js';
import { formats } from '../formats/registry.js';

export type WriteVerdict = { block: true } | undefined;

export class MessageWriteGuard {
  private readonly shapeOf: (message: unknown) => MessageShape | undefined;
  /**
   * Per session, the calls written and not yet answered. A session is known from the first
   * message it writes in this process: a result written before that (the first write after a
   * gateway restart) may answer a call from before, and is let through.
   */
  private readonly open = new Map<string, Set<string>>();

  /** The gate for `agent` (its name in the agents table), whose format must read messages before they are written. */
  constructor(agent: string) {
    const format = formats.find((candidate) => candidate.name === agentNamed(agent)?.format);
    if (format?.messageShape === undefined) throw new Error(`no write gate for ${agent}: its format reads no message before it is written`);
    this.shapeOf = format.messageShape;
  }

  /** `session`: the key of the session the message is written to (any string; one per session). */
  check(message: unknown, session: string): WriteVerdict {
    const shape = this.shapeOf(message);
    if (shape === undefined) return undefined;
    const known = this.open.get(session);
    const calls = known ?? new Set<string>();
    this.open.set(session, calls);
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
  forget(session: string): void {
    this.open.delete(session);
  }
}
