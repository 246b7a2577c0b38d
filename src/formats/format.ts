import type { EntryEdit, NewLine } from '../model/edits.js';
import type { Entry, KeptHistoryProblem } from '../model/entry.js';
import type { EntryStore } from '../model/entry-store.js';
import type { ReplaySemantics } from '../model/transcript.js';
import type { SizeParts } from '../model/size/request-size.js';
import type { SlimView } from './slim-view.js';

/** Turns parsed lines of one file into neutral entries. One decoder per file: it may keep state. */
export interface Decoder {
  /**
   * `latin1`: the line was valid UTF-8 but not ASCII, and was parsed from its bytes read as latin1,
   * given only to a decoder that `readsLatin1`: each string it keeps or judges by more than its ASCII
   * characters it reads through utf8Of (see io/line-text.ts).
   */
  decode(value: unknown, line: number, index: number, latin1?: boolean): Entry;
  /** Whether decode takes lines read as latin1. */
  readonly readsLatin1?: boolean;
  /** What it has learned so far (e.g. the header's version), as plain data another thread can continue from. */
  state(): unknown;
  /** The input has ended: what the decoder held back is written into the entries it returned (see Gemini CLI's). */
  end?(): void;
}

/** What `TranscriptFormat.settle` may add to an entry once the whole file is decoded. */
export interface LateFacts {
  keptHistoryProblems?: KeptHistoryProblem[];
  /** See Entry.wipesHistory. */
  wipesHistory?: string;
  /** See Entry.placeholderTurns. */
  placeholderTurns?: string[];
  /** See Entry.emptyTurns. */
  emptyTurns?: string[];
  /** See Entry.trailingResults. */
  trailingResults?: true;
  /** What the entry sends, as the settled replay sends it (see Entry.sizeBytes, usage, model). */
  size?: { parts: SizeParts; usage?: number; model?: string };
}

/** The readable part of one line, for the judge: what was said, never how the line is shaped. */
export interface LineText {
  text: string;
  /** Names of the tools an assistant message calls. */
  toolNames: string[];
  /** Milliseconds since the epoch, when the line records it. */
  time?: number;
  /** Working directory, from a session header. */
  cwd?: string;
}

/** Bytes `start` to `end` of a line, written as `text` instead. */
export interface ByteSplice {
  start: number;
  end: number;
  text: string;
}

/** Writes repairs back in the format's own shape. Parsed lines are changed in place, so key order is kept. */
export interface Encoder {
  apply(value: unknown, edits: readonly EntryEdit[]): void;
  /**
   * The same edits as splices of the line's UTF-8 bytes (in order, none overlapping), when the
   * format can say where each goes without parsing the line; undefined to have the line parsed and
   * `apply` used. The bytes are of a valid JSON line. What the splices leave must be what `apply`
   * gives, as values: only the edited members change, every other byte stays.
   */
  spans?(bytes: Buffer, edits: readonly EntryEdit[]): ByteSplice[] | undefined;
  /** A new entry id in the format's own shape, derived from `seed` so repairs are reproducible. */
  newId(seed: string): string;
  /**
   * A new line; `source` is the parsed line named by its `timestampFrom`, when there is one. `at` is
   * the time it gets when `source` has none: fixed by the caller (the file's last write), so two
   * runs over the same file, such as `--diff` and `--out`, write the same bytes.
   */
  create(line: NewLine, source: unknown, at: Date): unknown;
}

/**
 * Damage the format's own client mends in memory when it resumes a file, so a resume never sends
 * it (the file still holds it, and every other reader of the file meets it).
 */
export interface Healing {
  /** The client, as its users know it. */
  client: string;
  /** The first version known to do it (the one tried). */
  since: string;
  /** What it does, in a few words. */
  how: string;
}

/**
 * A transcript format. Everything that knows a format's field names lives behind this
 * interface; the rest of the program sees only neutral entries.
 */
export interface TranscriptFormat {
  name: string;
  /** How its agent rebuilds the conversation, when that differs from pi's. */
  semantics?: ReplaySemantics;
  /** True when a parsed line is unmistakably from this format. */
  detect(value: unknown): boolean;
  /**
   * True when a parsed value can be one of this format's lines (looser than `detect`, which
   * needs a line nothing else writes). The record opening the reader looks for when a line is
   * damaged: two appends on one line, a torn one before a whole one, one cut over several lines.
   * It must refuse what lines hold inside (messages, content blocks, arguments).
   */
  isRecord(value: unknown): boolean;
  /**
   * Looser than detect: a parsed line in this format's shape that another tool's file could also
   * hold. Asked only of a file in which no line is unmistakable (a small file most of whose lines
   * are broken), after where the file lives.
   */
  resembles?(value: unknown): boolean;
  /** Where its agent keeps its files: patterns over a path written with `/`, any home folder. */
  livesAt?: readonly RegExp[];
  /**
   * Files it keeps as one JSON document instead of JSONL, by path written with `/` (Gemini CLI's
   * legacy `session-*.json` and `/chat save` checkpoints): such a file is read as one record on
   * line 1, whatever lines it takes, and repaired by span inside it.
   */
  readsWholeDocument?(path: string): boolean;
  /**
   * Facts about the entries of a whole file that only its end settles, by entry index (Gemini CLI:
   * the last copy of a message wins). Read from what the decoder noted on each line (see
   * Entry.replayNote), so the facts are settled once every line is read (by two threads: once
   * their halves are joined, see load-file.ts).
   */
  settle?(entries: EntryStore): ReadonlyMap<number, LateFacts>;
  /**
   * Whether a line starting with these bytes (the first 64, as latin1) begins a stretch its
   * decoder reads from the state it has after the file's head (see Decoder.state): a second thread
   * starts before such a line when one is near the middle, so the state it guesses holds. Absent
   * when the state after the head holds everywhere.
   */
  startsAfresh?(head: string): boolean;
  /**
   * What the opening of one of its files (as text, possibly cut short) says about the session:
   * its whole id, the folder it was started in. Read without parsing, to find sessions by id and
   * by folder (see src/io/sessions).
   */
  sessionHead?(head: string): { id?: string; cwd?: string };
  /**
   * One message as its agent hands it to a plugin before appending it to the file (OpenClaw's
   * `before_message_write` hands pi messages), read for what a write gate blocks (see
   * hooks/write-gate.ts); undefined for a value that is no message. Absent for a format whose
   * agent offers no such gate.
   */
  messageShape?(message: unknown): MessageShape | undefined;
  /** A decoder, optionally continuing from another decoder's `state()`. */
  createDecoder(state?: unknown): Decoder;
  /** How repairs are written back in this format's own line shapes. */
  encoder: Encoder;
  /** The text of a parsed line (message text, called tool names, time, a header's working directory). */
  readText(value: unknown): LineText;
  /** What makes two lines the same entry written twice: the line without the moment it was written. */
  copyKey(value: unknown): string;
  /** Why `canonicalize` never has anything to do for this format (it has one shape per tool call and result); absent when it may. */
  nothingToCanonicalize?: string;
  /** By rule id: the findings its client heals by itself on resume (see Healing). */
  heals?: Readonly<Record<string, Healing>>;
  /** Tree links from the text of a line that does not parse, when they can still be read. */
  recoverLinks(text: string): { id: string; parentId: string | null } | undefined;
  /**
   * For formats whose every line is a whole conversation (request and dataset files): the
   * conversation a parsed line holds. Such a file is judged line by line, never as one tree.
   */
  conversationOf?(value: unknown): LineConversation | undefined;
  /** What the pair-atomic session writer needs to know of the format's lines beyond their entries. */
  appending?: AppendingHints;
  /** What `slim` may change in its lines (tool results' text, media, thinking); absent for a format slim leaves alone. */
  slim?: SlimView;
}

/**
 * What a write gate judges of a message about to be written: a tool result and the call it
 * answers, or a user or assistant message, whether it is blank, and the calls it makes; `other`
 * for a message of another role.
 */
export type MessageShape =
  | { kind: 'result'; callId: string | undefined }
  | { kind: 'turn'; blank: boolean; callIds: string[] }
  | { kind: 'other' };

/** Read by the session writer (src/session-writer) only; absent members mean the common case. */
export interface AppendingHints {
  /**
   * The side conversation a line belongs to when a sub-agent writes its own lines into the
   * session's file (Claude Code's side chains, between a Task call and its result): the agent's
   * id, or '' when the line does not name one. Its calls pair only among its own lines, and it
   * never ends the main conversation's turn. Undefined for the main conversation. Lines decoded
   * with an Entry.agent are already known to be a sub-agent's.
   */
  sideChainOf?(value: unknown): string | undefined;
  /**
   * Entry.group names one response (Claude Code's message id), not a kind of line: the agent runs
   * a response's first tools while the rest of it streams, so a line of the group belongs to the
   * response even after results of its first calls, and a result may be written before the line
   * of its call. Absent: the first result ends the message, and a result comes after its call.
   */
  responseGroups?: true;
}

/**
 * One conversation held by a line: a list of items (messages, input items, contents) inside the
 * parsed line, read and written through a decoder and encoder whose "lines" are those items.
 * Item i is decoded as entry i on line i + 1, with pointers from the root of the whole line.
 */
export interface LineConversation {
  /** The provider API the line's shape talks to (openai-chat, anthropic, openai-responses, gemini). */
  provider: string;
  /** JSON Pointer of the list inside the line, e.g. `/messages`. */
  pointer: string;
  items: unknown[];
  semantics: ReplaySemantics;
  /** A fresh decoder for this list's items. */
  createDecoder(): Decoder;
  /** Edits one item in place, and writes new items in the shape's own syntax. */
  encoder: Encoder;
  /** Puts a repaired list back into the parsed line, in the shape's own arrangement (Gemini: one response turn per call turn). */
  replace(items: unknown[]): void;
}
