/**
 * What `slim` (src/slim/) may change in a line, told by the line's format as pointers into the
 * parsed line: the planner chooses among these parts without learning a field name, and writes its
 * choices as the neutral edits stub-media, trim-text and drop-parts (src/model/edits.ts), which
 * src/formats/slim-edits.ts applies for every format.
 */

/** One part of a line slim may change. Pointers are JSON Pointers from the root of the parsed line. */
export type SlimPart =
  /** A string of a tool result's own text (a result may hold several), and that text. `callId` is the call it answers; `slimmed`, slim trimmed it before. */
  | { kind: 'result-text'; pointer: string; length: number; text: string; callId?: string; slimmed?: true }
  /** An image or a document whose bytes are in the line: the block a stub takes the place of. */
  | { kind: 'media'; pointer: string; media: 'image' | 'document'; base64Length: number; mediaType?: string; inToolResult: boolean; callId?: string }
  /** A thinking (or redacted thinking) block, only ever dropped whole; `length` counts what it holds, signature included. */
  | { kind: 'thinking'; pointer: string; length: number }
  /** A tool call: what a stub of its result names (the tool, and the path or command its arguments give). */
  | { kind: 'call'; callId?: string; name?: string; target?: string };

/** How a format shows slim its lines and writes slim's stubs. */
export interface SlimView {
  /** The parts of a parsed line slim may change, in the order they appear. */
  parts(value: unknown): SlimPart[];
  /** Top-level members `parts` never reads (a client's own copy of a result, for its screen): the line is read for it with them as null. */
  unread?: readonly string[];
  /**
   * A text block in the format's own shape for a stub, taking the place of `replaced` (the image
   * or document block): formats whose text blocks differ by where they sit (Codex's input_text
   * and output_text) read it from what they replace.
   */
  textBlock(replaced: unknown, text: string): unknown;
}

/** What slim writes where it cut a result's text: a text holding it is never trimmed again. */
export const TRIM_MARK = '[… transcript-doctor slim cut ';

/** A result text part, marked when slim has trimmed it before. */
export function resultText(pointer: string, text: string, callId: string | undefined): SlimPart {
  const part: SlimPart = { kind: 'result-text', pointer, length: text.length, text, callId };
  if (text.includes(TRIM_MARK)) part.slimmed = true;
  return part;
}
