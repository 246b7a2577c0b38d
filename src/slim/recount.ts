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
 * what the usage counted, or the format's agent keeps no such record.
 */
export function recountUsage(session: SlimSession, tokens: number): void {
  const { analysis } = session;
  if (session.firstEdit === Infinity) return;
  const anchor = usageAnchors(analysis, true)[0];
  if (anchor === undefined || session.firstEdit >= anchor.from) return;
  // measureRequest estimates what follows the record's place as it did after the last usage (the
  // response that recorded it is not its own input): the figure leaves that out, so measuring the
  // output gives the planner's estimate again rather than a little more. Left in when it is not
  // smaller (what followed was edited too): a usage of 0 would be no usage at all.
  const following = session.size.tokens.tokens - anchor.tokens;
  const value = compactionOf(analysis.transcript.format)?.recount?.({
    analysis,
    tokens: following < tokens ? tokens - following : tokens,
    tokensBefore: session.size.tokens.tokens,
    read: session.readLine,
    compacted: session.compactedFrom !== undefined,
    note: editsNote(session.report()),
  });
  if (value === undefined) return;
  session.builder.place(analysis.transcript.lines, { kind: 'record', value });
}

/** What slim changed without taking a message out, for the model to read in the record's summary: the kinds of cut, not their counts, which a later pass may add to. */
export function editsNote(results: readonly StrategyResult[]): string {
  const did = (...strategies: Array<StrategyResult['strategy']>) => results.some((result) => strategies.includes(result.strategy));
  const changes = [did('old-results') ? 'older tool results cut to head and tail' : '', did('images-over-limit', 'old-images') ? 'images replaced by a note saying what each was' : '', did('thinking') ? 'thinking dropped from older assistant messages' : ''].filter((change) => change !== '');
  return `transcript-doctor slim made this session smaller to fit the model's context window; no message was taken out${changes.length === 0 ? '' : `: ${changes.join(', ')}`}. Each cut says what it took out; the full history is in the backup of this file.`;
}
