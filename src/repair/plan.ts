/**
 * A repair is a plan of line edits, computed from the model after one read of the file. The
 * writer applies it in a second pass: lines the plan does not name are copied byte for byte.
 * Edits are neutral; the file's format turns them into its own field names.
 */

import type { Analysis } from '../model/analysis.js';
import type { EntryEdit, NewLine } from '../model/edits.js';

export type { EntryEdit, NewLine };

export type RepairMode = 'discard' | 'synthetic';

/**
 * What to write after a given line: existing lines moved there, new ones the format's encoder
 * makes, or a whole record a format already shaped (a compaction, see src/formats/compaction.ts).
 */
export type Placement = { kind: 'move'; line: number } | { kind: 'new'; value: NewLine } | { kind: 'record'; value: unknown };

export interface RepairCounts {
  droppedLines: number;
  droppedToolCalls: number;
  droppedAssistantMessages: number;
  addedResults: number;
  addedBridges: number;
  droppedDuplicates: number;
  droppedOrphans: number;
  splitLines: number;
  /** Records written over several lines, joined back onto one. */
  joinedRecords: number;
  renamedToolCalls: number;
  movedResults: number;
  relinkedEntries: number;
  rewrittenEntries: number;
}

export interface RepairPlan {
  /** Lines not written where they stand (dropped, or moved elsewhere). */
  skip: Set<number>;
  /** Changes to lines, by line number; applied wherever the line is written. */
  edits: Map<number, EntryEdit[]>;
  /** Lines to write after a line; key 0 means before the first line. */
  after: Map<number, Placement[]>;
  /** Lines holding several glued records, written as one line per readable record, and first lines of records written over several (joined). */
  split: Set<number>;
  /** Set when deciding the plan needs the file's bytes, which a pass only planned in memory does not have. */
  needsBytes?: boolean;
  /** Set when the planner stopped after a first step (records split or joined, item types, renamed copies) and leaves the rest to the next pass. */
  partial?: boolean;
  counts: RepairCounts;
  /** The analysis of the model an empty plan was made from (planning changed nothing in it), for judging what is left. */
  analysis?: Analysis;
}

export function emptyCounts(): RepairCounts {
  return {
    droppedLines: 0,
    droppedToolCalls: 0,
    droppedAssistantMessages: 0,
    addedResults: 0,
    addedBridges: 0,
    droppedDuplicates: 0,
    droppedOrphans: 0,
    splitLines: 0,
    joinedRecords: 0,
    renamedToolCalls: 0,
    movedResults: 0,
    relinkedEntries: 0,
    rewrittenEntries: 0,
  };
}

/** Adds `from`'s counts to `into`'s. */
export function addCounts(into: RepairCounts, from: RepairCounts): void {
  for (const [counter, value] of Object.entries(from)) into[counter as keyof RepairCounts] += value;
}

/** A plan that changes nothing. */
export function emptyPlan(): RepairPlan {
  return { skip: new Set(), edits: new Map(), after: new Map(), split: new Set(), counts: emptyCounts() };
}

export function isEmptyPlan(plan: RepairPlan): boolean {
  return plan.skip.size === 0 && plan.edits.size === 0 && plan.after.size === 0 && plan.split.size === 0;
}
