import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Encoder, TranscriptFormat } from '../formats/format.js';
import { tempFolder } from '../io/spool.js';
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
  replan: (transcript: Transcript, file?: string) => RepairPlan,
  fixEndings: boolean,
  use: (last: Pass) => Promise<T>,
): Promise<T> {
  let folder: Awaited<ReturnType<typeof tempFolder>> | undefined;
  const writePass = async (pass: Pass, n: number): Promise<Pass> => {
    folder ??= await tempFolder();
    const path = join(folder.path, `pass-${n}.jsonl`);
    const file = await open(path, 'w', 0o600);
    try {
      const output = await applyPlan({ ...pass, format }, pass.plan, async (chunk) => void (await file.write(chunk)), fixEndings);
      return { path, transcript: output, plan: replan(output, path) };
    } finally {
      await file.close();
    }
  };
  try {
    let pass = first;
    for (let n = 1; n < MAX_PASSES; n++) {
      // Split records have not been compared with the rest yet (copies among them need their bytes): that pass is written without a trial.
      if (pass.plan.split.size === 0) {
        const next = replan(await applyPlan({ ...pass, format }, pass.plan, async () => {}, fixEndings));
        if (isEmptyPlan(next) && !next.needsBytes) break;
      }
      pass = await writePass(pass, n);
      for (const [counter, value] of Object.entries(pass.plan.counts)) first.plan.counts[counter as keyof RepairPlan['counts']] += value;
      if (isEmptyPlan(pass.plan)) break;
    }
    return await use(pass);
  } finally {
    await folder?.remove();
  }
}
