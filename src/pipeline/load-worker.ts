import { parentPort, workerData } from 'node:worker_threads';
import { loadRange, type RangeRequest } from './load-range.js';

// Runs in a worker thread: decodes the second half of a large file while the main thread does the first.
parentPort!.postMessage(await loadRange(workerData as RangeRequest));
