import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Encoder, TranscriptFormat } from '../formats/format.js';
import type { Transcript } from '../model/transcript.js';
import { applyPlan } from '../repair/apply.js';
import { isEmptyPlan, type RepairPlan } from '../repair/plan.js';

/** One pass of a rewrite: a file, its model, and the plan for it. */
export interface Pass {
  path: string;
  transcript: Transcript;
  plan: RepairPlan;
}

/** A repair that still finds work after this many passes has a planner bug; stop rather than loop. */
const MAX_PASSES = 5;

/**
 * Rewrites to a fixed point, so one run leaves nothing a second run would change. Each pass is
 * first applied without writing, and its output model planned again; while that plan still
 * changes something (records split from a glued line, a fix that exposes another), the pass is
 * written to a temp file and the next one reads from there. `use` writes the last pass to the
 * real target; the temp files go when it is done, whatever happens. The counts of every pass
 * are added into the first plan's.
 */
export async function settle<T>(
  first: Pass,
  format: TranscriptFormat & { encoder: Encoder },
  replan: (transcript: Transcript) => RepairPlan,
  fixEndings: boolean,
  use: (last: Pass) => Promise<T>,
): Promise<T> {
  let folder: string | undefined;
  try {
    let pass = first;
    for (let n = 1; n < MAX_PASSES; n++) {
      const output = await applyPlan({ ...pass, format }, pass.plan, async () => {}, fixEndings);
      const next = replan(output);
      if (isEmptyPlan(next)) break;
      folder ??= await mkdtemp(join(tmpdir(), 'transcript-doctor-'));
      const path = join(folder, `pass-${n}.jsonl`);
      const file = await open(path, 'w', 0o600);
      try {
        await applyPlan({ ...pass, format }, pass.plan, async (chunk) => void (await file.write(chunk)), fixEndings);
      } finally {
        await file.close();
      }
      for (const [counter, value] of Object.entries(next.counts)) first.plan.counts[counter as keyof RepairPlan['counts']] += value;
      pass = { path, transcript: output, plan: next };
    }
    return await use(pass);
  } finally {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  }
}
