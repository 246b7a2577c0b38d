// Heap a loaded transcript keeps per entry:  node --expose-gc bench/retained.mjs <file>  → JSON
//
// Loads the file with the pipeline's own loader (dist/, one thread), twice: the first load
// compiles every code path and warms the heap, and is dropped; the heap after a full GC is the
// base. The second load is kept; the heap after a full GC, less the base, over the number of
// entries, is what each entry costs for as long as a command holds the transcript.
import { loadTranscriptFile } from '../dist/pipeline/load-file.js';

const file = process.argv[2];
if (!file || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc bench/retained.mjs <file.jsonl>');
  process.exit(2);
}

/** Heap after full GCs, once the reader's streams have closed and let go of what they read into. */
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < 3; i++) globalThis.gc();
  return process.memoryUsage();
};
/** Entries in a transcript, whatever shape the model keeps them in. */
const entryCount = (transcript) => transcript.entries?.length ?? transcript.entryCount ?? transcript.parsedLines;

// Every await below resolves to a number: a transcript that an await resolved to could stay
// referenced from the module's suspended frame and hide in the base.
const held = [];
const load = async (keep) => {
  const transcript = await loadTranscriptFile(file, undefined, false);
  if (keep) held.push(transcript);
  return entryCount(transcript);
};
await load(false);
const before = await settle();
await load(true);
const after = await settle();
const transcript = held[0];
const entries = entryCount(transcript);
const heapBytes = after.heapUsed - before.heapUsed;
// arrayBuffers (typed-array columns, Buffers) is part of external: counted once.
const externalBytes = after.external - before.external;
console.log(JSON.stringify({
  entries, lines: transcript.lines, heapBytes, externalBytes,
  bytesPerEntry: (heapBytes + Math.max(0, externalBytes)) / entries,
}));
