import { emptyPlan, type EntryEdit, type Placement, type RepairCounts, type RepairPlan } from './plan.js';

/** Collects a plan; keeps the bookkeeping (merging block drops, counting) out of the planner. */
export class PlanBuilder {
  readonly plan: RepairPlan = emptyPlan();

  count(counter: keyof RepairCounts, by = 1): void {
    this.plan.counts[counter] += by;
  }

  skip(line: number): void {
    this.plan.skip.add(line);
  }

  skipped(line: number): boolean {
    return this.plan.skip.has(line);
  }

  edit(line: number, edit: EntryEdit): void {
    const edits = this.plan.edits.get(line);
    // Most lines get one edit: an array of exactly one, not one pushed into (which reserves room for 17).
    if (edits === undefined) return void this.plan.edits.set(line, [edit]);
    const existing = edits.find((e) => sameTarget(e, edit));
    if (existing?.kind === 'drop-blocks' && edit.kind === 'drop-blocks') {
      existing.blocks = [...new Set([...existing.blocks, ...edit.blocks])].sort((a, b) => a - b);
    } else if (existing !== undefined) {
      edits[edits.indexOf(existing)] = edit;
    } else {
      edits.push(edit);
    }
  }

  /** The plan could not be completed from the model alone: some lines must be read again (a pass not yet written). */
  needBytes(): void {
    this.plan.needsBytes = true;
  }

  split(line: number, joined = false): void {
    this.plan.split.add(line);
    this.count(joined ? 'joinedRecords' : 'splitLines');
  }

  place(afterLine: number, placement: Placement): void {
    const list = this.plan.after.get(afterLine);
    if (list === undefined) this.plan.after.set(afterLine, [placement]);
    else list.push(placement);
  }

  /**
   * Drops edits of lines that are not written at all. `partial`: the planner stops here and
   * leaves the rest to the next pass (see RepairPlan.partial).
   */
  finish(partial = false): RepairPlan {
    if (partial) this.plan.partial = true;
    const moved = new Set<number>();
    for (const list of this.plan.after.values()) for (const p of list) if (p.kind === 'move') moved.add(p.line);
    for (const line of this.plan.edits.keys()) if (this.plan.skip.has(line) && !moved.has(line)) this.plan.edits.delete(line);
    return this.plan;
  }
}

/** Edits of one kind replace each other, except those aimed at different blocks or results of the line. */
function sameTarget(a: EntryEdit, b: EntryEdit): boolean {
  if (a.kind !== b.kind) return false;
  if ('block' in a && 'block' in b) return a.block === b.block;
  if ('pointer' in a && 'pointer' in b) return a.pointer === b.pointer;
  return true;
}
