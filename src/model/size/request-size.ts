/**
 * The size of the request a session's replay path would send: what the size rules (src/rules/size/),
 * `explain` (size-family errors) and `slim` read. Measured on the model, never on a format's fields;
 * the formats' decoders note each entry's share (see the size facts on Entry) and this layer adds
 * them up along the replay path.
 */

/**
 * What a part of the request is, for the breakdown of what makes a session big. `signature` is
 * the opaque data a provider signs reasoning with (each format's field: docs/size.md): bytes in
 * the body the provider checks and counts no input tokens for.
 */
export type SizeKind = 'text' | 'thinking' | 'toolCall' | 'toolResult' | 'image' | 'document' | 'other' | 'signature';

/** Bytes by kind. */
export type SizeParts = Partial<Record<SizeKind, number>>;

/** Input tokens of the replayed request, estimated, anchored on the last usage the session recorded. */
export interface TokenEstimate {
  /** The best estimate. */
  tokens: number;
  /**
   * The estimate plus the estimator's measured error on the corpus (its low bias) and the body's
   * framing: a session is said to fit only when this fits.
   */
  high: number;
  /** What `high` holds for the request body's own JSON beyond the provider's count (TokenEstimator.framing for each message). */
  framing: number;
  /** The estimator used for what follows the anchor (or for all of it, without one). */
  estimator: string;
  /** The last usage the session recorded on the replayed path: the tokens the provider counted up to and including that entry. */
  anchor?: { entry: number; tokens: number };
}

/** One image (or PDF) whose bytes are in the replayed request. */
export interface MeasuredMedia {
  entry: number;
  /** JSON Pointer inside the entry's line. */
  pointer: string;
  /** Where the provider sees it: message index and content-block index of the request it is in. */
  messageIndex: number;
  blockIndex: number;
  kind: 'image' | 'document';
  mediaType?: string;
  /** Length of its base64 text, which is what Anthropic's 5 MB image limit counts. */
  base64Length: number;
  /** Decoded bytes. */
  bytes: number;
  /** Pixel dimensions read from the image header, when the header could be read. */
  width?: number;
  height?: number;
  /** PDF pages, when counted. */
  pages?: number;
  /** Inside a tool result rather than a user (or assistant) message. */
  inToolResult: boolean;
}

/** How much of the request one kind (or one tool's output) takes. */
export interface SizeShare {
  bytes: number;
  tokens: number;
  count: number;
}

/** What makes a session big: by kind, tool output by tool, and the largest entries. */
export interface SizeBreakdown {
  byKind: Record<SizeKind, SizeShare>;
  /** Tool results (and the calls' arguments) by the tool's name, largest first. */
  byTool: Array<SizeShare & { tool: string }>;
  /** The largest replayed entries, largest first (at most a few dozen). */
  largest: Array<{ entry: number; line: number; kind: SizeKind; bytes: number; tokens: number; tool?: string }>;
}

export interface RequestSize {
  /** The model the session talks to (the last one the replayed path records), when the file names one. */
  model?: string;
  /** The context window the session records for that model (see Entry.contextWindow), when it records one. */
  window?: number;
  tokens: TokenEstimate;
  /** Bytes the request body would take (the replayed content as JSON), estimated. */
  bytes: number;
  /** Messages the request holds, as the provider counts them. */
  messages: number;
  media: MeasuredMedia[];
  /** Images plus PDF pages, as providers count media. */
  mediaCount: number;
  /** The longest single string the request holds, when one is over LONG_STRING (see model/size/facts.ts). */
  longestString?: { entry: number; pointer: string; length: number };
  /** The message with the most tool calls. */
  mostToolCalls?: { entry: number; messageIndex: number; count: number };
  breakdown: SizeBreakdown;
}
