import { parentPort } from 'node:worker_threads';
import { loadRanges, type RangeRequest } from './load-range.js';
import { RangeSteal } from './range-steal.js';

// Runs in a worker thread, started before its range is known: decodes the second half of a large
// file while the main thread does the first, then takes from the first half's end (see RangeSteal).
// Sends each range once decoded, then null.
parentPort!.once('message', async ({ request, steal }: { request: RangeRequest; steal: SharedArrayBuffer }) => {
  await loadRanges(request, new RangeSteal(steal), (part) => parentPort!.postMessage(part));
  parentPort!.postMessage(null);
});
