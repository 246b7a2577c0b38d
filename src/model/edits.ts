/**
 * Neutral edits a repair makes to entries. Formats turn them into their own field names
 * (see TranscriptFormat.encoder); nothing else needs to know how a line is shaped.
 */

/** A change to one existing line. */
export type EntryEdit =
  | { kind: 'set-parent'; parentId: string | null }
  | { kind: 'drop-blocks'; blocks: number[] }
  | { kind: 'set-tool-name'; name: string }
  | { kind: 'fill-failed-turn' }
  | { kind: 'fill-blank-user' }
  | { kind: 'set-first-kept'; id: string }
  | { kind: 'set-session-id'; id: string }
  /** Written out again from its parsed value: turns undecodable bytes into U+FFFD, as pi reads them. */
  | { kind: 'reencode' }
  /** Tool calls and results rewritten to the format's canonical shape (ambiguous ones left alone). */
  | { kind: 'canonicalize' }
  /** A message's tool results moved in front of its other blocks, keeping their order. */
  | { kind: 'results-first' };

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
  | { kind: 'header'; id: string; version?: number; timestampFrom?: number };
