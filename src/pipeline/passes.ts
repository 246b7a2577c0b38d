import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Encoder, TranscriptFormat } from '../formats/format.js';
import { tempFolder } from '../io/spool.js';
import { writevAll } from '../io/write-pieces.js';
import type { Transcript } from '../model/transcript.js';
import { applyPlan } from '../repair/apply.js';
import { addCounts, isEmptyPlan, type RepairPlan } from '../repair/plan.js';

/** What a sink takes in one write: bytes, or pieces of them in order. */
export type Chunk = Buffer | readonly Buffer[];

/** One pass of a rewrite: a file, its model, and the plan for it. */
export interface Pass {
  path: string;
  transcript: Transcript;
  plan: RepairPlan;
}

/** A repair that still finds work after this many passes has a planner bug; stop rather than loop. */
const MAX_PASSES = 5;

/** Where the last pass goes: the user's target, opened once per attempt. */
export interface Sink<T> {
  /** The chunk may be reused once this settles. A list is one chunk, its pieces in order, never copied together here. */
  write(chunk: Chunk): Promise<void>;
  /** Takes no bytes (a dry run, a trial pass): a pass there is only modelled. */
  modelOnly?: boolean;
  /** Everything written is on its way to disk; called before the output is planned again, so the two overlap. */
  flush?(): Promise<void>;
  /**
   * A file holding everything written, readable until discard: a pass that must be planned again
   * from its bytes is read from here rather than applied a second time into a temp file.
   */
  readBack?(): Promise<string>;
  /** Makes what was written the result; `output` is its model, `plan` the empty plan made from it when one was. */
  keep(output: Transcript, plan?: RepairPlan): Promise<T>;
  discard(): Promise<void>;
}

export interface Destination<T> {
  open(): Promise<Sink<T>>;
  /** A pass written there may still be discarded (a file not yet committed); a stream cannot take back what it was sent. */
  rewindable: boolean;
}

/** A pass applied only to see its model: the target is written once the pass is known to be the last. */
const TRIAL: Sink<never> = {
  write: async () => {},
  modelOnly: true,
  keep: async () => {
    throw new Error('a trial pass is never kept');
  },
  discard: async () => {},
};

/**
 * Rewrites to a fixed point, so one run leaves nothing a second run would change. Each pass is
 * written to the destination and its output model planned again; while that plan still changes
 * something (records split from a glued line, a fix that exposes another), the write is
 * discarded, the pass goes to a temp file instead, and the next one reads from there. A
 * destination that cannot be rewound gets only the last pass: the others are first applied
 * without writing. The temp files go when it is done, whatever happens. The counts of every
 * pass are added into the first plan's.
 */
export async function settle<T>(
  first: Pass,
  format: TranscriptFormat & { encoder: Encoder },
  /** Plans a pass's output; `after`, the plan that made it. */
  replan: (transcript: Transcript, file: string | undefined, after: RepairPlan) => RepairPlan,
  fixEndings: boolean,
  destination: Destination<T>,
): Promise<T> {
  let folder: Awaited<ReturnType<typeof tempFolder>> | undefined;
  const apply = (pass: Pass, sink: Pick<Sink<unknown>, 'write' | 'modelOnly'>) => applyPlan({ ...pass, format }, pass.plan, sink.modelOnly === true ? undefined : sink.write, fixEndings);
  const writePass = async (pass: Pass, n: number): Promise<Pass> => {
    folder ??= await tempFolder();
    const path = join(folder.path, `pass-${n}.jsonl`);
    const file = await open(path, 'w', 0o600);
    try {
      const output = await apply(pass, { write: async (chunk) => void (await writevAll(file, Buffer.isBuffer(chunk) ? [chunk] : chunk, null)) });
      return { path, transcript: output, plan: replan(output, path, pass.plan) };
    } finally {
      await file.close();
    }
  };
  // A discarded write the current pass reads its bytes from (see Sink.readBack): discarded once that pass is applied.
  let readFrom: Sink<unknown> | undefined;
  const doneReading = async (): Promise<void> => {
    await readFrom?.discard();
    readFrom = undefined;
  };
  const counts = first.plan.counts;
  let pass = first;
  // Not held past this: once a pass is applied its model can go before the output is modelled and judged (two models of a big file at once, not three).
  first = undefined as never;
  try {
    for (let n = 1; ; n++) {
      // A pass read back from a temp file was planned with its bytes: an empty plan there is final.
      const settled = n === MAX_PASSES || (n > 1 && isEmptyPlan(pass.plan));
      // Split records have not been compared with the rest yet (copies among them need their bytes): that pass goes to a temp file.
      if (settled || pass.plan.split.size === 0) {
        const sink = settled || destination.rewindable ? await destination.open() : TRIAL;
        const output = await attempt(sink, () => apply(pass, sink));
        await doneReading();
        if (settled) return await sink.keep(output);
        await sink.flush?.();
        const after = pass.plan;
        // Where the output can be read back, the pass is never applied again: its model can go before the output's is judged.
        if (sink.readBack !== undefined) pass = { ...pass, transcript: output };
        const next = replan(output, undefined, after);
        if (isEmptyPlan(next) && !next.needsBytes) {
          if (sink !== TRIAL) return await sink.keep(output, next);
          const target = await destination.open();
          return await target.keep(await attempt(target, () => apply(pass, target)));
        }
        const written = sink === TRIAL ? undefined : await attempt(sink, async () => sink.readBack?.());
        if (written !== undefined) {
          readFrom = sink;
          pass = { path: written, transcript: output, plan: replan(output, written, pass.plan) };
          addCounts(counts, pass.plan.counts);
          continue;
        }
        await sink.discard();
      }
      pass = await writePass(pass, n);
      await doneReading();
      addCounts(counts, pass.plan.counts);
    }
  } finally {
    await readFrom?.discard();
    await folder?.remove();
  }
}

/** Runs a write into `sink`, discarding what it got when the write fails. */
export async function attempt<R>(sink: Sink<unknown>, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    await sink.discard();
    throw error;
  }
}
