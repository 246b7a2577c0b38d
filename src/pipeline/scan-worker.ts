import { parentPort, workerData } from 'node:worker_threads';
import { codeOf } from '../errors.js';
import { formats } from '../formats/registry.js';
import { configureRules } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import { IN_FLIGHT, scanFile } from './scan.js';
import type { WorkerBatch, WorkerSetup } from './scan-pool.js';

// A worker of `scan --jobs`: takes the next file from the shared counter until none are left,
// and sends its results in batches (a message per file costs more than scanning a small one).
const BATCH_FILES = 32;
const BATCH_MS = 100;

const { paths, next, overrides, format, extras } = workerData as WorkerSetup;
const rules = configureRules(allRules, overrides);
const chosen = formats.find((candidate) => candidate.name === format);

// Stay alive until the pool ends this thread, so the last batch can never race the thread's exit.
parentPort!.on('message', () => undefined);

let batch: WorkerBatch['outcomes'] = [];
let sent = Date.now();
const drain = async (): Promise<void> => {
  for (let index = Atomics.add(next, 0, 1); index < paths.length; index = Atomics.add(next, 0, 1)) {
    // Awaited before `batch` is read: another file's scan may have sent and replaced it meanwhile.
    const outcome = await scanFile(paths[index]!, rules, chosen, false, extras).then(
      (report) => ({ index, report }),
      (error: unknown) => ({ index, error: { message: error instanceof Error ? error.message : String(error), code: codeOf(error) } }),
    );
    batch.push(outcome);
    if (batch.length >= BATCH_FILES || Date.now() - sent >= BATCH_MS) {
      parentPort!.postMessage({ outcomes: batch, done: false } satisfies WorkerBatch);
      batch = [];
      sent = Date.now();
    }
  }
};
// Not awaited at top level: the bundled thread is CommonJS (scripts/bundle.mjs). drain settles every file's error itself.
void Promise.all(Array.from({ length: IN_FLIGHT }, drain)).then(() => parentPort!.postMessage({ outcomes: batch, done: true } satisfies WorkerBatch));
