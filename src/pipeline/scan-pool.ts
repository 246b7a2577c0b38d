import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TranscriptFormat } from '../formats/format.js';
import type { SeverityOverride } from '../io/config.js';
import type { Rule } from '../rules/rule.js';
import type { FileReport } from './finding.js';
import { IN_FLIGHT, scanFile, type ScanExtras } from './scan.js';
import { scavengingAlone } from './scavenge-alone.js';

const WORKER = new URL('./scan-worker.js', import.meta.url);
/** Below this many files per thread, starting threads costs more than it saves. */
const MIN_FILES_PER_THREAD = 4;

export interface PoolOptions {
  jobs: number;
  rules: readonly Rule[];
  overrides: Record<string, SeverityOverride>;
  format?: TranscriptFormat;
  extras?: ScanExtras;
  /** Called as files finish, for progress: how many have, and which one just did. */
  onDone: (finished: number, index: number) => void;
}

/** What scanning one file gave: its report, or the error that kept it from being read. */
export type Outcome = { report: FileReport } | { error: Error & { code?: string } };

/** What a worker sends: outcomes by file index, and whether it has run out of files. */
export interface WorkerBatch {
  outcomes: Array<{ index: number; report?: FileReport; error?: { message: string; code?: string } }>;
  done: boolean;
}

/** What a worker starts with: every path, and the shared counter it takes the next index from. */
export interface WorkerSetup {
  paths: readonly string[];
  next: Int32Array;
  overrides: Record<string, SeverityOverride>;
  format?: string;
  extras?: ScanExtras;
}

/**
 * Scans files on `jobs` threads: this one and `jobs - 1` workers. Results come back in the
 * order of `paths`, whatever order they finish in.
 */
export async function scanFiles(paths: readonly string[], options: PoolOptions): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(paths.length);
  let finished = 0;
  const settle = (index: number, outcome: Outcome): void => {
    outcomes[index] = outcome;
    options.onDone(++finished, index);
  };
  const drain = async (take: () => number, twoThreads: boolean): Promise<void> => {
    for (let index = take(); index < paths.length; index = take()) {
      const scanned = scanFile(paths[index]!, options.rules, options.format, twoThreads, options.extras);
      settle(index, await scanned.then((report) => ({ report }), (error: Error) => ({ error })));
    }
  };

  const threads = Math.min(options.jobs, Math.ceil(paths.length / MIN_FILES_PER_THREAD));
  if (threads <= 1 || !existsSync(fileURLToPath(WORKER))) {
    // A large file may still use a second thread for itself.
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, () => drain(() => next++, true)));
    return outcomes;
  }
  // Every thread takes its next file from a shared counter: no thread waits for another to
  // hand out work, so this one scans too.
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const setup: WorkerSetup = { paths, next: counter, overrides: options.overrides, format: options.format?.name, extras: options.extras };
  await scavengingAlone(threads, async () => {
    const workers = Array.from({ length: threads - 1 }, () => new Worker(WORKER, { workerData: setup }));
    try {
      const take = () => Atomics.add(counter, 0, 1);
      await Promise.all([...Array.from({ length: IN_FLIGHT }, () => drain(take, false)), ...workers.map((worker) => collect(worker, settle))]);
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  });
  return outcomes;
}

/** Receives a worker's batches until its last one. */
function collect(worker: Worker, settle: (index: number, outcome: Outcome) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.on('message', (batch: WorkerBatch) => {
      for (const { index, report, error } of batch.outcomes) {
        settle(index, report !== undefined ? { report } : { error: Object.assign(new Error(error!.message), { code: error!.code }) });
      }
      if (batch.done) resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`scan thread exited with code ${code}`)));
  });
}
