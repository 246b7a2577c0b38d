import { analyze } from '../model/analysis.js';
import type { Transcript } from '../model/transcript.js';
import { repairHeader } from './header.js';
import { repairLinks } from './links.js';
import type { RepairMode, RepairPlan } from './plan.js';
import { PlanBuilder } from './plan-builder.js';
import { repairReplayPath } from './replay.js';

export interface PlanOptions {
  mode: RepairMode;
  /** Session id for a rebuilt header (from the file name). */
  sessionId: string;
}

/** Plans every fix for one transcript. Structure first: the replay path depends on the links. */
export function planRepair(transcript: Transcript, options: PlanOptions): RepairPlan {
  const builder = new PlanBuilder();
  if (transcript.format === undefined) return builder.finish();
  repairLinks(transcript, builder);
  const analysis = analyze(transcript);
  repairHeader(analysis, builder, options.sessionId);
  repairReplayPath(analysis, builder, options.mode);
  return builder.finish();
}
