import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TranscriptFormat } from '../formats/format.js';
import type { SeverityOverride } from '../io/config.js';
import type { Rule } from '../rules/rule.js';
import type { FileReport } from './finding.js';
import { scanFile } from './scan.js';

const WORKER = new URL('./scan-worker.js', import.meta.url);
/** Files each thread has in hand at once, so reading one overlaps parsing another. */
const IN_FLIGHT = 4;

export interface PoolOptions {
  jobs: number;
  rules: readonly Rule[];
  overrides: Record<string, SeverityOverride>;
  format?: TranscriptFormat;
  /** Called as files finish, for progress. */
  onDone: (finished: number) => void;
}

/** What scanning one file gave: its report, or the error that kept it from being read. */
export type Outcome = { report: FileReport } | { error: Error & { code?: string } };

type Scan = (index: number, path: string) => Promise<Outcome>;

/**
 * Scans files on `jobs` worker threads (one job: in this thread). Results come back in the
 * order of `paths`, whatever order they finish in.
 */
export async function scanFiles(paths: readonly string[], options: PoolOptions): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(paths.length);
  let finished = 0;
  let next = 0;
  const drain = async (scan: Scan): Promise<void> => {
    while (next < paths.length) {
      const index = next++;
      outcomes[index] = await scan(index, paths[index]!);
      options.onDone(++finished);
    }
  };
  const threads = Math.min(options.jobs, Math.ceil(paths.length / IN_FLIGHT));
  if (threads <= 1 || !existsSync(fileURLToPath(WORKER))) {
    // One thread: a large file may still use a second thread for itself.
    const here: Scan = (_, path) => scanFile(path, options.rules, options.format).then((report) => ({ report }), (error: Error) => ({ error }));
    await Promise.all(Array.from({ length: IN_FLIGHT }, () => drain(here)));
    return outcomes;
  }
  // This thread only hands out files and collects reports: scanning here too would keep it from
  // answering the workers.
  const workers = Array.from({ length: threads }, () => new ScanWorker(options));
  try {
    await Promise.all(workers.flatMap((worker) => Array.from({ length: IN_FLIGHT }, () => drain((index, path) => worker.scan(index, path)))));
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
  }
  return outcomes;
}

/** One worker thread and the answers it owes, by file index. */
class ScanWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (outcome: Outcome) => void; reject: (error: Error) => void }>();

  constructor(options: PoolOptions) {
    this.worker = new Worker(WORKER, { workerData: { overrides: options.overrides, format: options.format?.name } });
    this.worker.on('message', (message: { index: number; report?: FileReport; error?: { message: string; code?: string } }) => {
      const waiter = this.waiting.get(message.index)!;
      this.waiting.delete(message.index);
      waiter.resolve(message.report !== undefined ? { report: message.report } : { error: Object.assign(new Error(message.error!.message), { code: message.error!.code }) });
    });
    this.worker.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
  }

  scan(index: number, path: string): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.waiting.set(index, { resolve, reject });
      this.worker.postMessage({ index, path });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
