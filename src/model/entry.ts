/**
 * The format-neutral view of one transcript line. A format decoder fills it in; rules read
 * only these fields. It holds small metadata, never message content, so that memory stays
 * bounded on huge files.
 */

/** What an entry is, independent of any format's type names. */
export type EntryKind =
  | 'header' // session header: not part of the conversation tree
  | 'message' // a conversation message (see role)
  | 'compaction' // replaces older history with a summary on replay
  | 'branch-summary' // summary of an abandoned branch, sent as context
  | 'context' // extension-provided message sent to the model as user content
  | 'state' // bookkeeping the model never sees (model changes, labels, …)
  | 'unknown'; // a line the format does not recognise; passed through

/** Role as a provider sees it. `other` covers user-side roles such as shell runs. */
export type Role = 'user' | 'assistant' | 'toolResult' | 'other';

/** How an assistant turn ended. `failed` turns are skipped on replay. */
export type Outcome = 'complete' | 'toolUse' | 'truncated' | 'error' | 'aborted' | 'injected' | 'unknown';

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
  /** Required parts the block lacks; absent when complete. */
  missing?: Array<'id' | 'name' | 'arguments'>;
  /** The block uses a legacy or foreign shape (still paired, but not canonical). */
  legacyShape?: true;
}

export interface ToolResultRef {
  /** Id of the call this result answers, when present. */
  callId?: string;
  /** Tool name recorded on the result; undefined when absent, '' when blank. */
  name?: string;
  /** JSON Pointer of the tool-name field (or where it belongs). */
  namePointer: string;
  /** Written by an agent's repair code, not by the tool itself. */
  synthetic: boolean;
}

export interface HeaderInfo {
  valid: boolean;
  /** Why the header is invalid, in words. */
  problem?: string;
  version?: number;
  id?: string;
}

export interface Entry {
  /** Position among parsed entries, in file order. */
  index: number;
  line: number;
  kind: EntryKind;
  /** Pointer to the whole message object inside the line ('' for the line itself). */
  pointer: string;
  id?: string;
  /** `null` for a root; undefined when the field is absent. */
  parentId?: string | null;
  /** The entry has no parent field although its format version requires one. */
  parentMissing?: boolean;
  /** Legacy linear files: the parent is the previous entry in file order. */
  linksToPrevious?: boolean;
  header?: HeaderInfo;
  role?: Role;
  /** Sent to the model when it lies on the replayed path. */
  inContext: boolean;
  /** Written for people only (delivery mirrors, injected notices); replay drops it. */
  transcriptOnly?: boolean;
  outcome?: Outcome;
  toolCalls?: ToolCallRef[];
  toolResult?: ToolResultRef;
  /** For compactions: id of the first entry kept before the summary. */
  firstKeptId?: string;
  /** Message content is an empty list. */
  emptyContent?: boolean;
  /** User content with nothing but blank text. */
  blankText?: boolean;
  /** Pointers of empty or whitespace-only text blocks. */
  blankTextBlocks?: string[];
}

export function isFailed(entry: Entry): boolean {
  return entry.outcome === 'error' || entry.outcome === 'aborted';
}
