import type { SeverityOverride } from '../io/config.js';
import type { ProviderId } from '../providers/provider-id.js';
import { configureRules, overridesOf } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import type { RepairCounts, RepairMode } from '../repair/plan.js';
import type { Finding } from './finding.js';
import type { ConversationSink } from './load-transcript.js';

/**
 * What is done with each line of a file whose lines are conversations of their own (requests,
 * datasets): judged (a scan) or planned (a repair's first read). The lines are independent, so
 * another thread can do the same to a part of the file, when `job` says how.
 */
export interface LineWork {
  take: ConversationSink;
  /** The same work as plain data, for another thread; absent when the rules are not built-in ones. */
  job?: LineJob;
  /** What another thread's same work found in the lines after the first `lines` (its line numbers count from there). */
  merge(found: LineResults, lines: number): void;
  /** What it has found, for the thread that merges it. */
  results(): LineResults;
}

export interface LineJob {
  /** The built-in rules as configured (see overridesOf). */
  overrides: Record<string, SeverityOverride>;
  /** The provider every line is judged against; otherwise each line's own. */
  provider?: ProviderId;
  /** Plan each line's repair instead of only judging it. */
  repair?: LineRepair;
}

export interface LineResults {
  /** In line order. */
  findings: Finding[];
  /** Lines a repair changes (their findings are made after it), in line order. */
  changing: number[];
  /** Those of them already repaired (see planConversations). */
  repaired?: Array<[number, RepairedLine]>;
}

/** The job that does `rules` to each line, when another thread can make the same rules. */
export function lineJob(rules: readonly Rule[], provider: ProviderId | undefined, repair?: LineRepair): LineJob | undefined {
  const overrides = overridesOf(rules, allRules);
  if (overrides === undefined) return undefined;
  const job: LineJob = { overrides };
  if (provider !== undefined) job.provider = provider;
  if (repair !== undefined) job.repair = repair;
  return job;
}

/** The rules a job names. */
export function jobRules(job: LineJob): Rule[] {
  return configureRules(allRules, job.overrides);
}

/** Findings and lines of another part of the file, numbered as lines of this one. */
export function shifted(found: LineResults, lines: number): LineResults {
  return { findings: found.findings.map((finding) => ({ ...finding, line: finding.line + lines })), changing: found.changing.map((line) => line + lines) };
}

/** How each line is repaired: the mode, and the provider named for every line (otherwise each line's own). */
export interface LineRepair {
  mode: RepairMode;
  provider?: ProviderId;
}

/** A line repaired on its own, to a fixed point. */
export interface RepairedLine {
  /** Where its bytes are in the file, without the line ending. */
  start: number;
  end: number;
  /** Whether a plan had anything to do (the bytes may still come out the same). */
  changed: boolean;
  /** Its new bytes, without a line ending; absent when they are the bytes as read. */
  bytes?: Uint8Array;
  /** Absent for a line that holds no conversation. */
  counts?: RepairCounts;
  /** What is left in it; each finding's line is set where the line is written. */
  findings: Finding[];
}
