import type { Analysis } from '../model/analysis.js';
import type { EntryEdit } from '../model/edits.js';
import { TOOL_RESULT } from '../model/entry-bits.js';
import type { EntryStore } from '../model/entry-store.js';

/**
 * How a format writes a compaction in its agent's own record (see src/slim/compaction/): the
 * records it adds, the lines it drops, the edits it makes, so the agent's own loader resumes with
 * the summary and every entry from the first kept one on.
 */

/** One tool call as a summary names it: the tool, and the file or command it was given. */
export interface ToolUse {
  name: string;
  path?: string;
  command?: string;
}

/** What one line says, for a summary written without a model. */
export interface SummaryFacts {
  /** A prompt the person typed (not tool results, not the agent's own injected text). */
  prompt?: string;
  /** The text an assistant turn answered with. */
  answer?: string;
  /** The summary an earlier compaction left, which the new one carries on. */
  summary?: string;
  calls: ToolUse[];
}

export interface CompactionInput {
  analysis: Analysis;
  /** Position on `analysis.replay` of the first entry kept after the summary (see compactionCut). */
  keepFrom: number;
  summary: string;
  /** The parsed line an entry (by index) was read from. */
  read(entry: number): unknown;
  /** The replayed request's estimated tokens before the compaction, for the fields a record carries (preTokens, tokensBefore). */
  tokensBefore: number;
  /** The time a record takes when the entry it follows has none: the source file's mtime, so two runs write the same bytes. */
  fallbackTime: Date;
}

export interface CompactionRecords {
  /** Lines that go (Gemini CLI: the old records that give way to the summary turn). */
  skip: number[];
  edits: Array<{ line: number; edit: EntryEdit }>;
  /** Whole records in the format's own shape, written after a line (0: before the first). */
  records: Array<{ after: number; value: unknown }>;
  /** Existing lines moved to after a line, after the records placed there (Claude Code: the records its resume needs, out of what it skips). */
  moves?: Array<{ after: number; line: number }>;
}

export interface FormatCompaction {
  /**
   * Beyond cutPoints (a prompt or a message's first line, no pair cut in two): whether the format's
   * record can keep history from position `at`. With `replayed`, the format judges the cut alone.
   */
  canKeepFrom(analysis: Analysis, at: number, read?: (entry: number) => unknown): boolean;
  /**
   * For a format whose client replays messages the model does not list as a path (Gemini CLI
   * replays its log by message id): the entries of the messages it sends, in its order. Positions
   * then count these instead of `analysis.replay`'s.
   */
  replayed?(analysis: Analysis, read: (entry: number) => unknown): readonly number[];
  write(input: CompactionInput): CompactionRecords;
  /** What a parsed line says, for summarizeLocally. */
  facts(value: unknown): SummaryFacts;
  /**
   * Whether the model already shows that an entry's line says nothing to `facts` (a line of tool
   * results): summarizeLocally then does not read it. Tool results are most of a big session's bytes.
   */
  silent?(entries: EntryStore, index: number): boolean;
  /** With `replayed`: what the message at position `at` says (a line may list several messages). */
  factsAt?(analysis: Analysis, at: number, read: (entry: number) => unknown): SummaryFacts;
  /**
   * For an agent that decides from the last usage in the file whether to compact (Codex reads the
   * last `token_count` on resume; pi the last assistant message's usage, unless a compaction entry
   * is newer): the record it writes once it has counted its context again, to append at the end of
   * the file after slim changed history that usage counted. Recorded usage is never rewritten;
   * this is a new record, as the agent writes one after its own compaction. Undefined when the
   * file holds no usage record to follow, or the compaction slim wrote already tells the agent.
   */
  recount?(input: RecountInput): unknown;
}

export interface RecountInput {
  analysis: Analysis;
  /** The request's estimated input tokens after slim's edits, and before them. */
  tokens: number;
  tokensBefore: number;
  read(entry: number): unknown;
  /** Slim wrote the format's compaction record too (see write). */
  compacted: boolean;
  /** What slim changed, in words, for a record that carries text (pi's summary). */
  note: string;
}

/** FormatCompaction.silent for a format whose tool outputs say nothing a summary lists (their calls do). */
export function toolOutputSilent(entries: EntryStore, index: number): boolean {
  return entries.roleCode(index) === TOOL_RESULT;
}
