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
  if (!isCut(analysis, keepFrom)) return undefined;
  const records = format.write({ analysis, keepFrom, summary, read: options.read, tokensBefore: options.tokensBefore });
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
 */
export function compactionCut(analysis: Analysis, wanted: number): number | undefined {
  const format = compactionOf(analysis.transcript.format);
  if (format === undefined) return undefined;
  for (let at = Math.min(wanted, analysis.replay.context.length - 1); at > 0; at--) if (isCut(analysis, at)) return at;
  return undefined;
}

function isCut(analysis: Analysis, at: number): boolean {
  const format = compactionOf(analysis.transcript.format);
  return format !== undefined && at > 0 && at < analysis.replay.context.length && cutPoints(analysis)[at] === 1 && format.canKeepFrom(analysis, at);
}
