import type { ProviderId } from './provider-id.js';

/**
 * Evidence grades of reference/provider-rules.md: C confirmed by a quoted API response, D
 * documented, L seen only in library workarounds, U unconfirmed. C and D are errors, L and U warnings.
 */
export type Grade = 'C' | 'D' | 'L' | 'U';

/** Where a problem sits in the request, for the provider's own wording. */
export interface At {
  /** Index in the request's message (or content / input) list. */
  message: number;
  /** Content-block index inside that message. */
  block: number;
  /** Position of a call among the message's tool calls (OpenAI's `tool_calls[K]`). */
  call: number;
  /** The tool-call id concerned, when there is one. */
  id: string;
  /** The ids a message leaves unanswered, for texts that list them. */
  ids: readonly string[];
  /** The message index of the result a duplicate repeats (OpenAI names both messages). */
  earlier: number;
  /**
   * What the message holding a tool result follows: an assistant message with tool calls, a user
   * message, or anything else (an assistant reply without calls, the start of the request).
   */
  after: 'calls' | 'user' | 'other';
  /** A whitespace-only text rather than an empty one (some providers word them apart). */
  whitespace: boolean;
  /** An image's declared media type. */
  mediaType: string;
}

/** One rule as a provider enforces it. `text` is its exact error wording; absent when none is known. */
export interface Term {
  grade: Grade;
  text?: (at: At) => string;
}

/** The rules a provider's contract maps to, by our rule id (a generic rule, or one of src/rules/contract/). */
export type TermId =
  | 'tool-call-id-format'
  | 'tool-call-id-length'
  | 'tool-result-name-mismatch'
  | 'user-after-tool-result'
  | 'call-turn-order'
  | 'final-assistant-whitespace'
  | 'foreign-signed-reasoning'
  | 'image-media-type'
  | 'empty-text-block'
  | 'blank-user-message'
  | 'empty-error-turn'
  | 'missing-tool-result-name'
  | 'invalid-tool-name'
  | 'first-message-user'
  // The pairing rules (src/rules/pairing/): a call with no result, a result with no call (also one
  // for a call the replay drops), a call answered twice, two calls with one id, a result away from
  // its call, and a call sent without its input.
  | 'missing-tool-result'
  | 'orphan-tool-result'
  | 'duplicate-tool-result'
  | 'duplicate-tool-call-id'
  | 'displaced-tool-result'
  | 'partial-tool-call';

/** The shape tool-call ids must have: which characters, and how many. */
export interface IdShape {
  /** One allowed character; absent when any character is. */
  char?: RegExp;
  min: number;
  max: number;
  /** The provider is sent only the part of a stored id before the format's item-id separator (see ReplaySemantics.callIdItemSeparator). */
  callPart?: true;
}

/** The images a provider takes: which media types (how big: src/providers/size/size-limits.ts). */
export interface ImageLimits {
  types: readonly string[];
}

export interface ProviderContract {
  id: ProviderId;
  /** How findings name the provider, as the prefix of its error texts. */
  name: string;
  /** Tool-call ids it accepts; the `tool-call-id-format` term judges the characters, `tool-call-id-length` the length. */
  callId?: IdShape;
  /** Images it takes; the `image-media-type` term judges them (their sizes: src/providers/size/). */
  images?: ImageLimits;
  /** Each tool result is a message of its own (`role: "tool"`), so its texts count them one by one. */
  resultsApart?: true;
  terms: Partial<Record<TermId, Term>>;
}

/** C and D grade rules fail a request for certain; L and U ones are reported as warnings. */
export function severityOf(grade: Grade): 'error' | 'warning' {
  return grade === 'C' || grade === 'D' ? 'error' : 'warning';
}
