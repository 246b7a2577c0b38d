import { parentPort, workerData } from 'node:worker_threads';
import { reason } from '../errors.js';
import { shareInterruption } from '../io/exit-cleanup.js';
import { agentNamed } from '../io/sessions/index.js';
import { repairSession } from './guard-sessions.js';
import type { RepairJob } from './guard-repair.js';

// Runs in a worker thread: one post-exit repair of `guard`, so that the main thread stays free to
// stop it on a signal, however long the repair computes without a pause (see guard-repair.ts).
const job = workerData as RepairJob;
shareInterruption(new Int32Array(job.busy));
repairSession(job.path, agentNamed(job.agent)!, job.mode, job.slim, job.cache).then(
  (line) => parentPort!.postMessage({ line }),
  (error: unknown) => parentPort!.postMessage({ line: `could not repair ${job.path}: ${reason(error)}` }),
);
