/**
 * The format-neutral view of one transcript line. A format decoder fills it in; rules read
 * only these fields. It holds small metadata, never message content.
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

const IN_CONTEXT = 1;
const TRANSCRIPT_ONLY = 2;
const PARENT_MISSING = 4;
const LINKS_TO_PREVIOUS = 8;
const EMPTY_CONTENT = 16;
const BLANK_TEXT = 32;

/**
 * One decoded line. A class with every field set in the constructor, and yes/no facts packed
 * into one number, because a huge file holds hundreds of thousands of these: one fixed shape
 * keeps each small and every rule's property access fast.
 */
export class Entry {
  kind: EntryKind = 'unknown';
  /** Pointer to the whole message object inside the line ('' for the line itself). */
  pointer = '';
  id: string | undefined = undefined;
  /** `null` for a root; undefined when the field is absent. */
  parentId: string | null | undefined = undefined;
  role: Role | undefined = undefined;
  outcome: Outcome | undefined = undefined;
  toolCalls: ToolCallRef[] | undefined = undefined;
  toolResult: ToolResultRef | undefined = undefined;
  header: HeaderInfo | undefined = undefined;
  /** For compactions: id of the first entry kept before the summary. */
  firstKeptId: string | undefined = undefined;
  /** Pointers of empty or whitespace-only text blocks. */
  blankTextBlocks: string[] | undefined = undefined;
  private flags = 0;

  constructor(
    /** Position among parsed entries, in file order. */
    readonly index: number,
    readonly line: number,
  ) {}

  /** Sent to the model when it lies on the replayed path. */
  get inContext(): boolean {
    return this.has(IN_CONTEXT);
  }
  set inContext(value: boolean) {
    this.set(IN_CONTEXT, value);
  }
  /** Written for people only (delivery mirrors, injected notices); replay drops it. */
  get transcriptOnly(): boolean {
    return this.has(TRANSCRIPT_ONLY);
  }
  set transcriptOnly(value: boolean) {
    this.set(TRANSCRIPT_ONLY, value);
  }
  /** The entry has no parent field although its format version requires one. */
  get parentMissing(): boolean {
    return this.has(PARENT_MISSING);
  }
  set parentMissing(value: boolean) {
    this.set(PARENT_MISSING, value);
  }
  /** Legacy linear files: the parent is the previous entry in file order. */
  get linksToPrevious(): boolean {
    return this.has(LINKS_TO_PREVIOUS);
  }
  set linksToPrevious(value: boolean) {
    this.set(LINKS_TO_PREVIOUS, value);
  }
  /** Message content is an empty list. */
  get emptyContent(): boolean {
    return this.has(EMPTY_CONTENT);
  }
  set emptyContent(value: boolean) {
    this.set(EMPTY_CONTENT, value);
  }
  /** User content with nothing but blank text. */
  get blankText(): boolean {
    return this.has(BLANK_TEXT);
  }
  set blankText(value: boolean) {
    this.set(BLANK_TEXT, value);
  }

  private has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }
  private set(flag: number, value: boolean): void {
    this.flags = value ? this.flags | flag : this.flags & ~flag;
  }
}

export function isFailed(entry: Entry): boolean {
  return entry.outcome === 'error' || entry.outcome === 'aborted';
}
