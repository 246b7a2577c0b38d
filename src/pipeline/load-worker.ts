import { parentPort } from 'node:worker_threads';
import { loadRange, type RangeRequest } from './load-range.js';

// Runs in a worker thread, started before its range is known: decodes the second half of a large
// file while the main thread does the first.
parentPort!.once('message', async (request: RangeRequest) => parentPort!.postMessage(await loadRange(request)));
