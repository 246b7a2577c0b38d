import type { SizeKind, SizeParts } from './size/request-size.js';
import type { DocumentRef, ImageRef, ServerToolRef, ToolCallRef, ToolResultRef } from './entry-refs.js';
import type { KeptHistoryProblem } from './kept-history.js';

export type { DocumentRef, ImageRef, ServerToolRef, ToolCallRef, ToolResultRef } from './entry-refs.js';
export { isPairProblem, type KeptContractProblem, type KeptHistoryProblem, type KeptPairProblem } from './kept-history.js';

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

export interface SchemaBreak {
  /** JSON Pointer of the member inside the line. */
  pointer: string;
  problem: string;
  /** The schema leaves one right value, which repair writes. */
  fixable: boolean;
  /** The agent's own loader takes the line; only a loader that validates the schema strictly refuses it. */
  clientLoads?: true;
}

export interface HeaderInfo {
  valid: boolean;
  /** Why the header is invalid, in words. */
  problem?: string;
  version?: number;
  id?: string;
}

/** Yes/no facts, stored as bits of one number (see `Entry.flags`). */
export const FLAGS = ['inContext', 'transcriptOnly', 'parentMissing', 'linksToPrevious', 'emptyContent', 'blankText', 'signedThinking', 'resultsAfterOther', 'reasoningOnly'] as const;

/**
 * One decoded line, as a format's decoder fills it in. It lives only until the loader packs it
 * into the file's EntryStore (entry-store.ts, its columns in entry-columns.ts), where every entry
 * is a row of typed-array columns; readers get the same fields back through the store's views.
 * One fixed shape, with the yes/no facts in one number, keeps the decoders' work cheap.
 */
export class Entry {
  kind: EntryKind = 'unknown';
  /** Pointer to the whole message object inside the line ('' for the line itself). */
  pointer = '';
  id: string | undefined = undefined;
  /** `null` for a root; undefined when the field is absent. */
  parentId: string | null | undefined = undefined;
  /** A root that continues an earlier conversation (a compaction boundary) names its last entry here. */
  declare logicalParentId: string | undefined;
  /**
   * A compaction after which the agent sets the recorded usage of the entries it kept to zero
   * (Claude Code's preserved messages): the id of the last of them. Usage recorded on the path up
   * to it counted history the compaction took out, and is no anchor.
   */
  declare clearsUsageThrough: string | undefined;
  role: Role | undefined = undefined;
  /**
   * Lines that are parts of one message share a group (Claude Code writes each block of a
   * response on its own line); consecutive lines of one group count as one message.
   */
  group: string | undefined = undefined;
  outcome: Outcome | undefined = undefined;
  toolCalls: ToolCallRef[] | undefined = undefined;
  /** Results a message carries: one for pi's result messages, one per block for formats that batch them. */
  toolResults: ToolResultRef[] | undefined = undefined;
  /** Server-side tool calls and results, in block order. */
  declare serverTools: ServerToolRef[] | undefined;
  declare header: HeaderInfo | undefined;
  /** For compactions that carry the history they keep: its broken pairs, when there are any. */
  declare keptHistoryProblems: KeptHistoryProblem[] | undefined;
  /** For compactions: id of the first entry kept before the summary. */
  declare firstKeptId: string | undefined;
  /**
   * The line's number in a numbered file (Codex's paginated rollouts): each numbered line must
   * follow the one before it by one. Undefined when the line carries none.
   */
  declare sequence: number | undefined;
  /** A marker that takes back the last N user turns (Codex's `thread_rolled_back`): the agent replays the history without them. */
  declare rollsBackTurns: number | undefined;
  /**
   * A marker that takes back history by naming an entry the history does not hold (Gemini CLI's
   * `$rewindTo` to an unknown id): the agent then drops everything before it. The id it names.
   */
  declare wipesHistory: string | undefined;
  /**
   * Pointers of assistant turns the agent wrote in place of an answer it never got (Gemini CLI's
   * interrupted-response placeholder, PR #28939): replayed, the model reads them as its own words.
   */
  declare placeholderTurns: string[] | undefined;
  /**
   * Pointers of assistant turns with nothing in them (no text, no calls, no thinking) that end the
   * conversation the agent replays: the agent was stopped before the turn was filled (Gemini CLI
   * records a turn of calls empty, its calls once they complete). Every copy of such a turn is
   * noted, where it sits, since dropping one copy would let an earlier one take its place.
   */
  declare emptyTurns: string[] | undefined;
  /**
   * The conversation the agent replays ends on the tool results this entry holds, which the agent
   * answers itself with an assistant turn of its own when it resumes (Gemini CLI: its interrupted-
   * response placeholder). For a format whose client answers only such an ending, not every user
   * turn (see ReplaySemantics.answersTrailingUser).
   */
  declare trailingResults: true | undefined;
  /**
   * What a format that settles its replay at the end of the file (TranscriptFormat.settle) noted
   * about the line, in its own terms; nothing but that format reads it. A field, not a rare one:
   * such a format notes most lines (EntryStore keeps them in a column of their own, `notes`).
   */
  replayNote: unknown = undefined;
  /** Pointers of empty or whitespace-only text blocks. */
  declare blankTextBlocks: string[] | undefined;
  /** Those of them that hold whitespace (providers word that error differently). */
  declare whitespaceTextBlocks: string[] | undefined;
  /**
   * The provider an assistant turn talked to (a ProviderId, or 'unknown' for one we have no
   * contract for), written only where it differs from the assistant turn before it in the file.
   */
  declare provider: string | undefined;
  /** An assistant message whose last text ends in whitespace (Anthropic rejects that as the final message). */
  declare trailingWhitespace: true | undefined;
  /** Images whose bytes are in the line. */
  declare images: ImageRef[] | undefined;
  /**
   * A line whose item type is not written, so the agent skips it (Codex's `response_item` without
   * `type`): the type its fields show, in the format's words, or '' when they do not show one.
   */
  declare lostType: string | undefined;
  /**
   * Content parts of a message whose type the agent cannot read, so it skips the whole line
   * (Codex: a `"text"` part instead of `input_text` / `output_text`): pointer, the type as written,
   * and the type it reads as when the part says which (a text part of a known role).
   */
  declare unreadableParts: Array<{ pointer: string; type: string; readAs?: string }> | undefined;
  /**
   * Where a line breaks the schema its agent's loader validates every line against (Copilot CLI:
   * a missing required field, an id that is no UUID, a wrong literal): the member, what is wrong in
   * the format's words, whether the schema leaves one right value to write, and whether the agent
   * still loads the file.
   */
  declare schemaBreaks: SchemaBreak[] | undefined;
  /**
   * The sub-agent whose own conversation the entry belongs to, when another agent's events share
   * the file (Copilot CLI's concurrent sub-agents, #2543): its calls pair only within that agent,
   * and the main conversation never sends it. Absent for the main agent's entries.
   */
  declare agent: string | undefined;
  /**
   * Bytes of what a provider is sent for this entry (text, thinking, call arguments as JSON, result
   * content, media as base64), as the decoder read them: UTF-8 bytes from a line read as latin1.
   * See model/size/facts.ts (addSize), which keeps them by SizeKind.
   */
  sizeBytes = 0;
  /** The SizeKind of those bytes; with more than one, the largest, and sizeParts holds them all. */
  sizeKind: SizeKind | undefined = undefined;
  /** The bytes by kind, for an entry whose content is of more than one kind. */
  declare sizeParts: SizeParts | undefined;
  /**
   * Input tokens the provider counted for the request that produced this entry (input + cache read
   * + cache write), when the line records them.
   */
  usage: number | undefined = undefined;
  /** The model an assistant turn names, written only where it differs from the one before it in the file. */
  declare model: string | undefined;
  /**
   * The context window the agent recorded for the model (Qwen Code's own setting, Codex's
   * `model_context_window`), written where it or the model changes: it wins over the size tables'
   * window for that model.
   */
  declare contextWindow: number | undefined;
  /** Documents (PDF) whose bytes are in the line. */
  declare documents: DocumentRef[] | undefined;
  /** The longest string of the content, when one is over LONG_STRING (model/size/facts.ts): providers cap a string's length. */
  declare longString: { pointer: string; length: number } | undefined;
  /** Number of content blocks of a message (0 when content is not a list). */
  blockCount = 0;
  /** Where the line starts in the file and how long it is, so a repair can copy it elsewhere. */
  offset = 0;
  byteLength = 0;
  flags = 0;
  /** Fields few lines have (see RARE), kept out of the common shape: each slot costs 8 bytes a line. */
  rare: Record<string, unknown> | undefined = undefined;

  /** Sent to the model when it lies on the replayed path. */
  declare inContext: boolean;
  /** Written for people only (delivery mirrors, injected notices); replay drops it. */
  declare transcriptOnly: boolean;
  /** The entry has no parent field although its format version requires one. */
  declare parentMissing: boolean;
  /** Legacy linear files: the parent is the previous entry in file order. */
  declare linksToPrevious: boolean;
  /** Message content is an empty list. */
  declare emptyContent: boolean;
  /** User content with nothing but blank text. */
  declare blankText: boolean;
  /** Carries signed reasoning, which providers reject once the message is edited. */
  declare signedThinking: boolean;
  /** A message that carries tool results has other content before one of them. */
  declare resultsAfterOther: boolean;
  /**
   * Every content block of the message is reasoning (thinking, redacted thinking): a line of a
   * response written over several lines that says nothing by itself (see repair/replay.ts).
   */
  declare reasoningOnly: boolean;

  constructor(
    /** Position among parsed entries, in file order. */
    readonly index: number,
    readonly line: number,
  ) {}
}

FLAGS.forEach((name, bit) => {
  Object.defineProperty(Entry.prototype, name, {
    get(this: Entry) {
      return (this.flags & (1 << bit)) !== 0;
    },
    set(this: Entry, value: boolean) {
      this.flags = value ? this.flags | (1 << bit) : this.flags & ~(1 << bit);
    },
  });
});

export const RARE = ['logicalParentId', 'clearsUsageThrough', 'serverTools', 'header', 'firstKeptId', 'blankTextBlocks', 'whitespaceTextBlocks', 'rollsBackTurns', 'wipesHistory', 'placeholderTurns', 'emptyTurns', 'trailingResults', 'keptHistoryProblems', 'provider', 'trailingWhitespace', 'images', 'lostType', 'unreadableParts', 'schemaBreaks', 'agent', 'sizeParts', 'model', 'contextWindow', 'documents', 'longString'] as const;

RARE.forEach((name) => {
  Object.defineProperty(Entry.prototype, name, {
    get(this: Entry) {
      return this.rare?.[name];
    },
    set(this: Entry, value: unknown) {
      if (value === undefined && this.rare === undefined) return;
      (this.rare ??= {})[name] = value;
    },
  });
});

/**
 * Linear (legacy) files have no entry ids: entries are named by their position among parsed
 * lines, which is also how such files refer to each other (pi v1 `firstKeptEntryIndex`).
 */
export function positionalId(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) return `#${index}`;
  const { plain, padded } = (digitGroups ??= makeDigitGroups());
  let tail = '';
  let rest = index;
  for (; rest >= 1000; rest = Math.floor(rest / 1000)) tail = padded[rest % 1000]! + tail;
  return `#${plain[rest]!}${tail}`;
}

/**
 * The three-digit groups positionalId spells an index with. Turning a number into a string
 * (`#${index}`) goes through V8's number-to-string cache, which holds each new string until a
 * later number takes its slot: with a new index every line, each string lives through two young
 * collections and is moved to the old generation. On a Codex rollout that doubled the time its
 * young collections took (94 against 41–47 ms on one thread); strings joined from these do not
 * pass through the cache.
 */
let digitGroups: { plain: string[]; padded: string[] } | undefined;

function makeDigitGroups() {
  const plain = Array.from({ length: 1000 }, (_, n) => String(n));
  return { plain, padded: plain.map((digits) => digits.padStart(3, '0')) };
}

/** The position a positional id names, or undefined for a real id. */
export function positionOf(id: string): number | undefined {
  return /^#\d+$/.test(id) ? Number(id.slice(1)) : undefined;
}

export function isFailed(entry: Entry): boolean {
  return entry.outcome === 'error' || entry.outcome === 'aborted';
}
