import { compactionOf } from '../formats/compactions.js';
import { usageAnchors } from '../model/size/measure.js';
import type { StrategyResult } from './report.js';
import type { SlimSession } from './session.js';

/**
 * After edits to history the last recorded usage counted, the record an agent that decides from
 * that usage writes once it has counted its context again (see FormatCompaction.recount), appended
 * at the end of the file: the agent then sees the new size on resume and does not compact on its
 * own, and so does measureRequest, which anchors on that record (Codex's token_count) or on no usage
 * before it (pi's compaction entry). Nothing when every edit is after
 * what the usage counted, or the format's agent keeps no such record. True when one was written.
 */
export function recountUsage(session: SlimSession, tokens: number): boolean {
  const { analysis } = session;
  if (session.firstEdit === Infinity) return false;
  const anchor = usageAnchors(analysis, true)[0];
  if (anchor === undefined || session.firstEdit >= anchor.from) return false;
  // `tokens` is the planner's high bound (the estimate plus its margin): measureRequest then anchors
  // on a figure that already holds the margin, so a second pass or a scan keeps it rather than
  // taking our estimate for a recorded count. The record goes at the end, so it counts all that is
  // sent, but for the assistant entries that end the file: measureRequest estimates those after it,
  // as after any usage (the response that recorded one is not its own input). When they are what
  // followed the last usage, the figure leaves their estimate out, so measuring the output gives the
  // planner's bound again. Left in when it is not smaller (what followed was edited too): a usage
  // of 0 would be no usage at all.
  // The body's framing is no part of a provider's count: measureRequest adds it to the record's figure again.
  const { framing } = session.size.tokens;
  const counted = tokens - framing;
  const following = trailingAssistantsFrom(session) === anchor.from ? session.size.tokens.high - framing - anchor.tokens : 0;
  const value = compactionOf(analysis.transcript.format)?.recount?.({
    analysis,
    tokens: following < counted ? counted - following : counted,
    tokensBefore: session.size.tokens.tokens,
    read: session.readLine,
    compacted: session.compactedFrom !== undefined,
    note: editsNote(session.report()),
  });
  if (value === undefined) return false;
  session.builder.place(analysis.transcript.lines, { kind: 'record', value });
  return true;
}

/** What slim changed without taking a message out, for the model to read in the record's summary: the kinds of cut, not their counts, which a later pass may add to. */
export function editsNote(results: readonly StrategyResult[]): string {
  const did = (...strategies: Array<StrategyResult['strategy']>) => results.some((result) => strategies.includes(result.strategy));
  const changes = [did('old-results') ? 'older tool results cut to head and tail' : '', did('images-over-limit', 'old-images') ? 'images replaced by a note saying what each was' : '', did('thinking') ? 'thinking dropped from older assistant messages' : ''].filter((change) => change !== '');
  return `transcript-doctor slim made this session smaller to fit the model's context window; no message was taken out${changes.length === 0 ? '' : `: ${changes.join(', ')}`}. Each cut says what it took out; the full history is in the backup of this file.`;
}

/** The position where the assistant entries that end the replayed path start (its length when it ends otherwise). */
function trailingAssistantsFrom(session: SlimSession): number {
  let from = session.length;
  while (from > 0 && session.isAssistant(session.entryAt(from - 1))) from -= 1;
  return from;
}
