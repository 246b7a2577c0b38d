import { compactionOf } from '../../formats/compactions.js';
import { compactionCut, planCompaction, replayedEntries } from '../compaction/plan.js';
import { summarizeLocally } from '../compaction/summary.js';
import type { SlimSession } from '../session.js';
import type { ThinkingRule } from './thinking.js';

/** Room kept under the target for what the summary takes and what the request adds around the history (system prompt, tools). */
const HEADROOM = 0.85;

/** What share of the target the kept history and the summary take together, the rest left for the estimate's error. */
const SUMMARY_SHARE = 0.95;

/** A compaction must take out at least this many times what its summary adds. */
const MIN_GAIN = 2;

/**
 * 4. When the rest is not enough: a compaction in the agent's own record (src/slim/compaction/),
 * keeping as much of the latest history as fits, never less than the latest turn. Every thinking
 * block kept after it was produced after another prefix, so it goes too (the latest turn aside).
 */
export function compactOldHistory(session: SlimSession, thinking: ThinkingRule): void {
  const { analysis, budget } = session;
  if (budget.fits()) return;
  const { entries } = analysis;
  // Positions are the compaction's own: the replayed path's, or the messages a client replays from its log (Gemini CLI).
  const order = replayedEntries(analysis, session.readLine);
  // What each position still costs, from the end: lines once each, less what the edits took out.
  const suffix = new Float64Array(order.length + 1);
  let lastLine = -1;
  for (let at = order.length - 1; at >= 0; at--) {
    const entry = order[at]!;
    const line = entries.line(entry);
    const bytes = line === lastLine ? 0 : Math.max(0, entries.byteLength[entry]! - (session.savedOnLine.get(line) ?? 0));
    lastLine = line;
    suffix[at] = suffix[at + 1]! + bytes;
  }
  // Without a recount record to carry slim's count on, what a compaction keeps is counted afresh
  // by the next pass, as the agent counts it (see Budget.freshTokensPerByte): priced so, it fits there too.
  const rate = compactionOf(analysis.transcript.format)?.recount === undefined ? budget.freshTokensPerByte : budget.tokensPerByte;
  const room = budget.target.tokens * HEADROOM;
  const fitsFrom = (at: number) => suffix[at]! * rate <= room && suffix[at]! <= budget.target.bytes * HEADROOM;
  const keepFrom = chooseCut(session, order.length, fitsFrom);
  if (keepFrom === undefined) return;
  // Only an earlier compaction before the cut: summarising its summary again would clip it, and a second run would do it again.
  if (onlyCompactionsBefore(session, order, keepFrom)) return;
  const given = session.givenSummary;
  // The summary may take what the kept history leaves under the target (in characters, as bytes of text).
  const summaryRoom = Math.min(rate > 0 ? budget.target.tokens / rate : Infinity, budget.target.bytes) * SUMMARY_SHARE - suffix[keepFrom]!;
  const summary = given !== undefined && given.keepFrom === keepFrom ? given.text : summarizeLocally(analysis, keepFrom, session.readLine, summaryRoom);
  // A history that comes to little more than its summary (an earlier compaction and its summary) is not worth another.
  if (suffix[0]! - suffix[keepFrom]! <= summary.length * MIN_GAIN) return;
  const plan = planCompaction(analysis, { keepFrom, summary, read: session.readLine, tokensBefore: session.size.tokens.tokens, fallbackTime: session.fallbackTime });
  if (plan === undefined) return;
  const { builder } = session;
  for (const line of plan.skip) builder.skip(line);
  for (const [line, edits] of plan.edits) for (const edit of edits) builder.edit(line, edit);
  for (const [after, placements] of plan.after) for (const placement of placements) builder.place(after, placement);
  const before = { bytes: budget.bytes, tokens: budget.tokens };
  const keptBytes = suffix[keepFrom]! + summary.length;
  budget.bytes = Math.min(budget.bytes, keptBytes);
  budget.tokens = Math.min(budget.tokens, keptBytes * rate);
  const kept = order[keepFrom]!;
  session.count('compaction', entries.line(kept), { bytes: before.bytes - budget.bytes, tokens: before.tokens - budget.tokens });
  const position = session.position[kept]!;
  session.firstEdit = Math.min(session.firstEdit, position === -1 ? keepFrom : position);
  session.compactedFrom = keepFrom;
  thinking.follow();
}

/**
 * The cut that keeps the most history and fits: the earliest cut point from which the rest fits,
 * up to the latest prompt; when even that does not fit, the last cut at or before it, so the
 * latest turn is kept whole and the rest is compacted. `length` counts the compaction's positions.
 */
function chooseCut(session: SlimSession, length: number, fitsFrom: (at: number) => boolean): number | undefined {
  const { analysis, readLine } = session;
  // A client that replays its log: the latest prompt is its format's last cut (it keeps from prompts only).
  const ownPositions = compactionOf(analysis.transcript.format)?.replayed !== undefined;
  const last = ownPositions ? compactionCut(analysis, length - 1, readLine) : Math.min(session.lastPrompt, length - 1);
  if (last === undefined) return undefined;
  for (let at = 1; at <= last; at++) {
    // compactionCut gives the cut at or before a position: `at` itself only when it is one.
    if (fitsFrom(at) && compactionCut(analysis, at, readLine) === at) return at;
  }
  return compactionCut(analysis, last, readLine);
}

function onlyCompactionsBefore(session: SlimSession, order: ArrayLike<number>, keepFrom: number): boolean {
  const { entries } = session.analysis;
  for (let at = 0; at < keepFrom; at++) if (entries.kind(order[at]!) !== 'compaction') return false;
  return true;
}
