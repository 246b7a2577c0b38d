import { compactionOf } from '../formats/compactions.js';
import { formats } from '../formats/registry.js';
import type { SlimView } from '../formats/slim-view.js';
import { analyze, type Analysis } from '../model/analysis.js';
import type { RequestSize } from '../model/size/request-size.js';
import type { Transcript } from '../model/transcript.js';
import { withParsedLines } from './compaction/lines.js';
import { statSync } from '../io/named-fs.js';
import { PlanBuilder } from '../repair/plan-builder.js';
import { isEmptyPlan, type RepairPlan } from '../repair/plan.js';
import { Budget } from './budget.js';
import { slimLimits } from './limits.js';
import { measureRequest } from '../model/size/measure.js';
import { estimatorFor } from '../model/size/estimate.js';
import { DEFAULT_KEEP_TURNS, type SlimOptions } from './options.js';
import type { SizeSnapshot, SlimReport } from './report.js';
import { SlimSession } from './session.js';
import { noteImagesOverLimit, stubImagesOverLimit, stubOldImages } from './strategies/images.js';
import { trimOldResults } from './strategies/results.js';
import { compactOldHistory } from './strategies/compaction.js';
import { ThinkingRule } from './strategies/thinking.js';
import { recountUsage } from './recount.js';

const NO_PARTS: SlimView = { parts: () => [], textBlock: (_replaced, text) => text };

export interface SlimPlan {
  plan: RepairPlan;
  report: SlimReport;
  /** Every strategy ran to its end, none compacted, and the request is still over: planning its output again finds nothing more. */
  exhausted?: true;
  /** Where a compaction was planned to keep history from, and the analysis its positions are on (for slim --summarize). */
  compaction?: { keepFrom: number; analysis: Analysis };
}

/**
 * Plans the edits that make one session's replayed request fit its target, least loss first, and
 * stops as soon as it fits: images over a limit, older images, older tool results trimmed (with
 * the thinking those edits invalidate dropped whole). A session that fits gets an empty plan, so
 * it is written byte for byte. `file` holds the transcript's bytes (the lines to slim are read
 * from it); without it a plan that needs them says so (RepairPlan.needsBytes).
 */
export function planSlim(transcript: Transcript, options: SlimOptions, file: string | undefined): SlimPlan {
  const builder = new PlanBuilder();
  const analysis = analyze(transcript);
  const size = measureRequest(analysis);
  const limits = slimLimits(analysis, size, options);
  const budget = new Budget(size, limits.target, estimatorFor(size.model, transcript.format).margin);
  // A format slim cannot yet show parts of is still compacted in its agent's own record, when it has one.
  const view = formats.find((candidate) => candidate.name === transcript.format)?.slim ?? (compactionOf(transcript.format) === undefined ? undefined : NO_PARTS);
  const before = snapshot(size);
  const report = (left?: string[]): SlimReport => ({ target: limits.target, before, after: after(budget, size), fits: budget.fits(), strategies: [], ...(left === undefined ? {} : { left }) });
  // A whole JSON document (a Gemini CLI checkpoint) is edited by span in memory; slim leaves it alone.
  const document = transcript.lineIssues.some((issue) => issue.kind === 'document');
  if (view === undefined || document) {
    const plan = builder.finish();
    plan.analysis = analysis;
    return { plan, report: report(budget.fits() ? undefined : [`slim does not rewrite ${document ? 'a session kept as one JSON document' : `${transcript.format ?? 'unrecognised'} transcripts`} yet`]) };
  }
  noteImagesOverLimit(size, limits, budget, (entry) => analysis.entries.line(entry));
  if (budget.fits()) return { plan: finished(builder, analysis), report: report() };
  // Edits are by line: a line holding glued records (or a record written over several) is first put one record a line, as repair does, and slimmed in the next pass.
  const unsplit = transcript.lineIssues.filter((issue) => issue.kind === 'glued' || issue.kind === 'split');
  if (unsplit.length > 0) {
    for (const issue of unsplit) builder.split(issue.line, issue.kind === 'split');
    return { plan: builder.finish(true), report: report() };
  }
  if (file === undefined) {
    builder.needBytes();
    return { plan: builder.finish(), report: report() };
  }
  let strategies: SlimReport['strategies'] = [];
  let compactedFrom: number | undefined;
  let recounted = false;
  withParsedLines(file, analysis.entries, (read) => {
    const session = new SlimSession(analysis, view, size, limits, budget, builder, options.keepTurns ?? DEFAULT_KEEP_TURNS, read, statSync(file).mtime);
    if (options.summary !== undefined) session.givenSummary = options.summary;
    const thinking = new ThinkingRule(session);
    const stubbed = stubImagesOverLimit(session, thinking);
    if (!budget.fits()) stubOldImages(session, thinking, stubbed);
    if (!budget.fits()) trimOldResults(session, thinking);
    if (!budget.fits()) compactOldHistory(session, thinking);
    relinkChildren(analysis, builder, thinking.droppedEntries);
    recounted = recountUsage(session, after(budget, size).high);
    strategies = session.report();
    compactedFrom = session.compactedFrom;
  });
  builder.plan.counts.rewrittenEntries = builder.plan.edits.size;
  builder.plan.counts.droppedLines = builder.plan.skip.size;
  const plan = isEmptyPlan(builder.plan) ? finished(builder, analysis) : builder.finish();
  const result: SlimPlan = { plan, report: { ...report(budget.fits() ? undefined : budget.over()), strategies } };
  // A compaction, or a recount record, restarts the agent's count of its context (see usageAnchors):
  // only measuring the output tells whether it fits.
  if (!budget.fits() && compactedFrom === undefined && !recounted) result.exhausted = true;
  if (compactedFrom !== undefined) result.compaction = { keepFrom: compactedFrom, analysis };
  return result;
}

function finished(builder: PlanBuilder, analysis: Analysis): RepairPlan {
  const plan = builder.finish();
  plan.analysis = analysis;
  return plan;
}

export function snapshot(size: RequestSize): SizeSnapshot {
  return { tokens: size.tokens.tokens, high: size.tokens.high, bytes: size.bytes, media: size.mediaCount };
}

/** The planner's own estimate of the size after its edits (the next pass measures it). */
function after(budget: Budget, size: RequestSize): SizeSnapshot {
  const { framing } = size.tokens;
  const scale = size.tokens.tokens === 0 ? 1 : (size.tokens.high - framing) / size.tokens.tokens;
  return { tokens: Math.round((budget.tokens - framing) / scale), high: Math.round(budget.tokens), bytes: Math.round(budget.bytes), media: budget.media };
}

/** The children of lines slim drops whole hang from the nearest ancestor it keeps. */
function relinkChildren(analysis: Analysis, builder: PlanBuilder, dropped: readonly number[]): void {
  if (dropped.length === 0) return;
  const { entries, tree } = analysis;
  const gone = new Set(dropped);
  const kept = (index: number): number => {
    let at = index;
    while (at !== -1 && gone.has(at)) at = tree.parent[at]!;
    return at;
  };
  for (let child = 0; child < entries.length; child++) {
    const parent = tree.parent[child]!;
    if (parent === -1 || !gone.has(parent) || gone.has(child) || entries.parentRef[child] === -1) continue;
    const to = kept(parent);
    builder.edit(entries.line(child), { kind: 'set-parent', parentId: to === -1 ? null : (entries.at(to).id ?? null) });
    builder.count('relinkedEntries');
  }
}
