import { compactionOf } from '../../formats/compactions.js';
import type { Analysis } from '../../model/analysis.js';
import type { EntryEdit } from '../../model/edits.js';
import type { Placement } from '../../repair/plan.js';
import { cutPoints } from './cuts.js';

export interface CompactionOptions {
  /** Position on `analysis.replay` of the first entry to keep; pass it through compactionCut first. */
  keepFrom: number;
  /** From summarizeLocally or summarizeWithModel over the positions before keepFrom. */
  summary: string;
  /** The parsed line of an entry (by entry index); see withParsedLines. */
  read(entry: number): unknown;
  /** The replayed request's estimated tokens before the compaction (RequestSize.tokens.tokens), written where the record carries it. */
  tokensBefore: number;
  /** The time a record takes when the entry it follows has none (see CompactionInput.fallbackTime). */
  fallbackTime: Date;
}

/** Plan pieces in RepairPlan's shape: slim merges them into its plan and the repair writer writes them. */
export interface CompactionPlan {
  skip: Set<number>;
  edits: Map<number, EntryEdit[]>;
  after: Map<number, Placement[]>;
  /** The summary the record carries. */
  summary: string;
  keepFrom: number;
}

/**
 * The edits that write a local compaction in the agent's own record (Claude Code's
 * compact_boundary and summary line, Codex's `compacted` with replacement_history, pi's and
 * OpenClaw's `compaction` entry, Qwen Code's `chat_compression`, Copilot CLI's compaction events,
 * Gemini CLI's one summary turn), so that on resume the agent replays the summary and then every
 * replayed entry from `keepFrom` on, unchanged. Undefined when the format has no writer, or
 * `keepFrom` is not a place a compaction may keep history from (see compactionCut). Recorded
 * usage figures are never rewritten.
 */
export function planCompaction(analysis: Analysis, options: CompactionOptions): CompactionPlan | undefined {
  const format = compactionOf(analysis.transcript.format);
  if (format === undefined) return undefined;
  const { keepFrom, summary } = options;
  if (!isCut(analysis, keepFrom, options.read)) return undefined;
  const records = format.write({ ...options, analysis });
  const plan: CompactionPlan = { skip: new Set(records.skip), edits: new Map(), after: new Map(), summary, keepFrom };
  for (const { line, edit } of records.edits) plan.edits.set(line, [...(plan.edits.get(line) ?? []), edit]);
  for (const { after, value } of records.records) plan.after.set(after, [...(plan.after.get(after) ?? []), { kind: 'record', value }]);
  for (const { after, line } of records.moves ?? []) {
    plan.skip.add(line);
    plan.after.set(after, [...(plan.after.get(after) ?? []), { kind: 'move', line }]);
  }
  return plan;
}

/**
 * The first replay position at or before `wanted` a compaction may keep history from (never a
 * tool result, never inside one message), or undefined when there is none after the first entry.
 * `read` is needed for Gemini CLI, whose positions are its own (see replayedEntries).
 */
export function compactionCut(analysis: Analysis, wanted: number, read?: (entry: number) => unknown): number | undefined {
  const format = compactionOf(analysis.transcript.format);
  if (format === undefined) return undefined;
  for (let at = Math.min(wanted, replayedEntries(analysis, read).length - 1); at > 0; at--) if (isCut(analysis, at, read)) return at;
  return undefined;
}

/**
 * The entries a compaction's positions count: the replayed path's, or, for a format whose client
 * replays what the model lists as no path (Gemini CLI), the messages that client sends.
 */
export function replayedEntries(analysis: Analysis, read?: (entry: number) => unknown): ArrayLike<number> {
  const format = compactionOf(analysis.transcript.format);
  return format?.replayed !== undefined ? (read === undefined ? [] : format.replayed(analysis, read)) : analysis.replay.context.indices;
}

function isCut(analysis: Analysis, at: number, read: ((entry: number) => unknown) | undefined): boolean {
  const format = compactionOf(analysis.transcript.format);
  if (format === undefined || at <= 0) return false;
  if (format.replayed !== undefined) return format.canKeepFrom(analysis, at, read);
  return at < analysis.replay.context.length && cutPoints(analysis)[at] === 1 && format.canKeepFrom(analysis, at, read);
}
