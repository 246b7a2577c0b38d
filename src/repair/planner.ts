import { analyze } from '../model/analysis.js';
import { semanticsOf, type Transcript } from '../model/transcript.js';
import { formats } from '../formats/registry.js';
import { dropCopiedEntries } from './copied-entries.js';
import { repairHeader } from './header.js';
import { restoreItemTypes } from './item-types.js';
import { renameLaterCopies } from './reused-ids.js';
import { closeTrailingTurn } from './closing-turn.js';
import { repairKeptHistories } from './kept-history.js';
import { repairReplayedLog } from './replayed-log.js';
import { withLineReader } from './line-reader.js';
import { repairLinks } from './links.js';
import { isEmptyPlan, type RepairMode, type RepairPlan } from './plan.js';
import { PlanBuilder } from './plan-builder.js';
import { repairReplayPath } from './replay.js';
import { renumberLines } from './sequence.js';

export interface PlanOptions {
  mode: RepairMode;
  /** Session id for a rebuilt header (from the file name). */
  sessionId: string;
  /** The file the transcript was read from, when its bytes are there to compare (not for a pass not yet written). */
  file?: string;
}

/** Plans every fix for one transcript. Structure first: the replay path depends on the links. */
export function planRepair(transcript: Transcript, options: PlanOptions): RepairPlan {
  const builder = new PlanBuilder();
  const format = formats.find((candidate) => candidate.name === transcript.format);
  // A whole JSON document is for its author to turn into records: every line of it stays.
  if (format === undefined || transcript.lineIssues.some((issue) => issue.kind === 'document')) return builder.finish();
  const encoder = format.encoder;
  // Glued records are split, and records written over several lines joined, first; they are judged in the next pass, like every other line: until then their links are not known to be right.
  const glued = transcript.lineIssues.filter((issue) => issue.kind === 'glued' || issue.kind === 'split');
  if (glued.length > 0) {
    for (const issue of glued) builder.split(issue.line, issue.kind === 'split');
    // Too long to copy to the next pass, and it holds no links to recover.
    for (const issue of transcript.lineIssues) if (issue.kind === 'oversized') builder.skip(issue.line);
    return builder.finish(true);
  }
  if (restoreItemTypes(transcript.entries, builder)) return builder.finish(true);
  let renamed = false;
  withLineReader(options.file, (lineBytes) => {
    dropCopiedEntries(transcript, format, builder, lineBytes);
    if (semanticsOf(transcript).duplicateIds === 'first') renamed = renameLaterCopies(transcript, format, builder, lineBytes);
  });
  if (renamed) return builder.finish(true);
  const analysis = analyze(transcript, repairLinks(transcript, builder));
  if (semanticsOf(transcript).header) repairHeader(analysis, builder, options.sessionId);
  repairReplayPath(analysis, builder, options.mode, (seed) => encoder.newId(seed));
  repairKeptHistories(analysis, builder, options.mode);
  repairReplayedLog(transcript.entries, builder);
  if (isEmptyPlan(builder.plan)) closeTrailingTurn(analysis, builder, (seed) => encoder.newId(seed));
  if (isEmptyPlan(builder.plan)) renumberLines(transcript.entries, builder);
  const plan = builder.finish();
  if (isEmptyPlan(plan)) plan.analysis = analysis;
  return plan;
}
