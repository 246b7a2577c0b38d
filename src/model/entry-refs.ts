/** What an entry points at inside its line: its calls, results, server tools, images and documents. */

export interface ToolCallRef {
  /** Tool-call id, when it is a non-empty string. */
  id?: string;
  name?: string;
  /** JSON Pointer of the block inside its line. */
  pointer: string;
  /** Index of the block in the message content, as a provider would count it. */
  blockIndex: number;
  /** Streaming leftovers (an unfinished argument buffer) are still on the block. */
  partial?: true;
  /** The file gives the call no id (Gemini's are optional): `id` is one the model made up to pair it, never to be shown or written. */
  anonymous?: true;
  /** Required parts the block lacks; absent when complete. */
  missing?: Array<'id' | 'name' | 'arguments'>;
  /** What canonicalizing the block would change, in words; absent when it is canonical. */
  changes?: string[];
  /** Why the block cannot be canonicalized without guessing. */
  conflict?: string;
}

export interface ToolResultRef {
  /** Id of the call this result answers, when present. */
  callId?: string;
  /** JSON Pointer of the result inside its line (the whole message when a line is one result). */
  pointer: string;
  /** Tool name recorded on the result; undefined when absent, '' when blank. */
  name?: string;
  /** JSON Pointer of the tool-name field (or where it belongs); absent for formats whose results carry no name. */
  namePointer?: string;
  /** Written by an agent's repair code, not by the tool itself. */
  synthetic: boolean;
  /** The file names no call id for it: `callId` is one the model made up to pair it, never to be shown or written. */
  anonymous?: true;
  /** What canonicalizing the result would change, in words; absent when it is canonical. */
  changes?: string[];
  /** Why the result cannot be canonicalized without guessing. */
  conflict?: string;
}

/** A tool the provider runs inside one response (Anthropic's server tools): its call and result sit in the same message. */
export interface ServerToolRef {
  kind: 'call' | 'result';
  /** The call's id, or the id a result names. */
  id?: string;
  /** The block's type as written, quoted in the provider's error. */
  type: string;
  pointer: string;
  blockIndex: number;
}

/** An image whose bytes are in the line: what it says it is, what its bytes are, how big it is. */
export interface ImageRef {
  pointer: string;
  /** Index of the content block that holds it (the tool result block, for an image nested in one). */
  blockIndex: number;
  /** The media type the line declares, when it declares one. */
  declared?: string;
  /** The media type its first bytes show; absent when they show none we know. */
  actual?: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** Length of its base64 text (what Anthropic's 5 MB limit counts); absent when no longer than `bytes` says. */
  base64Length?: number;
  /** Pixel dimensions from the image header, when it could be read. */
  width?: number;
  height?: number;
  /** Inside a tool result rather than a message of its own. */
  inToolResult?: true;
}

/** A document (PDF) whose bytes are in the line. */
export interface DocumentRef {
  pointer: string;
  blockIndex: number;
  mediaType?: string;
  base64Length: number;
  bytes: number;
  /** Pages, when the document could be counted cheaply. */
  pages?: number;
  inToolResult?: true;
}
