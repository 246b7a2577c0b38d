import type { KeptHistoryProblem } from './entry.js';

/**
 * Neutral edits a repair makes to entries. Formats turn them into their own field names
 * (see TranscriptFormat.encoder); nothing else needs to know how a line is shaped.
 */

/** A change to one existing line. */
export type EntryEdit =
  | { kind: 'set-parent'; parentId: string | null }
  /** The entry gets an id of its own: it reused the id of an earlier, different entry (see renameLaterCopies). */
  | { kind: 'set-entry-id'; id: string }
  | { kind: 'drop-blocks'; blocks: number[] }
  | { kind: 'set-tool-name'; name: string }
  /** A call block gets another id (a duplicate renamed) or its name trimmed; `block` counts blocks as written. */
  | { kind: 'set-call-id'; block: number; id: string }
  | { kind: 'set-call-name'; block: number; name: string }
  /** The result at `pointer` (see ToolResultRef) names another call id. */
  | { kind: 'set-result-id'; pointer: string; id: string }
  | { kind: 'fill-failed-turn' }
  | { kind: 'fill-blank-user' }
  | { kind: 'set-first-kept'; id: string }
  | { kind: 'set-session-id'; id: string }
  /** A compaction's own kept history paired again (see Entry.keptHistoryProblems), unanswered calls dropped or answered as `mode` says. */
  | {
      kind: 'fix-kept-history';
      mode: 'discard' | 'synthetic';
      /** The problems to mend, for a format that mends them where they sit (Gemini CLI: a log whose replayed history spans lines). */
      problems?: readonly KeptHistoryProblem[];
    }
  /** Placeholder turns (see Entry.placeholderTurns) go from the line. */
  | { kind: 'drop-placeholder-turns'; pointers: readonly string[] }
  /** Copies of empty turns that end the conversation (see Entry.emptyTurns) go from the message lists that hold them. */
  | { kind: 'drop-empty-turns'; pointers: readonly string[] }
  /** The line's sequence number (see Entry.sequence). */
  | { kind: 'set-sequence'; value: number }
  /** Written out again from its parsed value: turns undecodable bytes into U+FFFD, as pi reads them. */
  | { kind: 'reencode' }
  /** Tool calls and results rewritten to the format's canonical shape (ambiguous ones left alone). */
  | { kind: 'canonicalize' }
  /** A message's tool results moved in front of its other blocks, keeping their order. */
  | { kind: 'results-first' }
  /** Reasoning blocks another provider signed (see Entry.signedThinking) go; the rest of the message stays. */
  | { kind: 'drop-signed-reasoning' }
  /** A line the agent skips for want of its item type gets the type back (see Entry.lostType). */
  | { kind: 'set-item-type'; type: string }
  /** Content parts the agent cannot read get the type they read as (see Entry.unreadableParts). */
  | { kind: 'retype-parts' }
  /** Members that break the schema the agent validates get the one value it leaves (see Entry.schemaBreaks). */
  | { kind: 'fix-schema' }
  /** The whitespace at the end of the message's last block, a text block, goes (see Entry.trailingWhitespace). */
  | { kind: 'trim-final-text' }
  /** Slim (src/slim/): the image or document block at `pointer` gives way to a text block in the format's shape saying what was there. */
  | { kind: 'stub-media'; pointer: string; text: string }
  /** Slim: the string at `pointer` (a tool result's text) keeps its first `head` and last `tail` characters, with `stub` between them. */
  | { kind: 'trim-text'; pointer: string; head: number; tail: number; stub: string }
  /** Slim: the blocks at these pointers (thinking, whole) leave their lists. */
  | { kind: 'drop-parts'; pointers: readonly string[] };

/** A line the repair writes that was not in the file. */
export type NewLine =
  | {
      kind: 'missing-result';
      /** Entry id and parent for tree formats; absent in linear (v1) files. */
      id?: string;
      parentId?: string;
      callId: string;
      toolName?: string;
      /** Line whose timestamp the new entry borrows. */
      timestampFrom: number;
    }
  | { kind: 'header'; id: string; version?: number; timestampFrom?: number }
  /** A short message a provider's turn order needs between two others (see BRIDGE_TEXTS); ids and links as for a missing result. */
  | {
      kind: 'bridge';
      role: 'user' | 'assistant';
      id?: string;
      parentId?: string;
      timestampFrom: number;
      /** The assistant turn the agent's own client writes after a user turn nobody answered (see ReplaySemantics.answersTrailingUser), in its words. */
      closing?: true;
    };

/**
 * What a bridge says. The assistant one is pi's own for providers that want an assistant message
 * between tool results and a user message; the user one is OpenClaw's placeholder for a user turn.
 */
export const BRIDGE_TEXTS = { assistant: 'I have processed the tool results.', user: '(continue)' } as const;

const RANK: Partial<Record<EntryEdit['kind'], number>> = { 'set-call-id': 0, 'set-call-name': 0, 'set-result-id': 0, 'stub-media': 0, 'trim-text': 0, 'drop-blocks': 1, 'drop-parts': 1 };

/**
 * Edits in the order an encoder applies them: those that name a block by its place in the line
 * as written come before the block drops that would move it, and both before any reordering.
 */
export function inApplyOrder(edits: readonly EntryEdit[]): EntryEdit[] {
  return [...edits].sort((a, b) => (RANK[a.kind] ?? 2) - (RANK[b.kind] ?? 2));
}
