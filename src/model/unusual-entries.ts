import { flagMask } from './entry-bits.js';
import { PARTIAL } from './entry-columns.js';
import type { EntryStore } from './entry-store.js';

/** Flags that mark something a rule reports: a missing parent, empty or blank content, results after other content. */
const ATTENTION = flagMask('parentMissing') | flagMask('emptyContent') | flagMask('blankText') | flagMask('resultsAfterOther');

/**
 * The entries, in order, that hold anything out of the ordinary: a rare field, an attention flag,
 * a partial, incomplete or non-canonical call, a non-canonical result, or a result whose tool
 * name is missing, blank or padded. Most of a file is none of these, so the rules that only look
 * for such things (Rule.entries `unusual`) visit a few entries instead of making a view of each.
 */
export function unusualEntries(store: EntryStore): Uint32Array {
  const marked = new Uint8Array(store.length);
  for (const i of store.rare.keys()) marked[i] = 1;
  const info = store.info;
  for (let i = 0; i < store.length; i++) if ((info[i]! & ATTENTION) !== 0) marked[i] = 1;
  for (let k = 0; k < store.calls; k++) if ((store.callFlags[k]! & PARTIAL) !== 0) marked[store.callOwner[k]!] = 1;
  for (const k of store.callExtras.keys()) marked[store.callOwner[k]!] = 1;
  for (const k of store.resultExtras.keys()) marked[store.resultOwner[k]!] = 1;
  for (let k = 0; k < store.results; k++) if (store.resultNameOdd(k)) marked[store.resultOwner[k]!] = 1;
  let count = 0;
  for (let i = 0; i < marked.length; i++) count += marked[i]!;
  const unusual = new Uint32Array(count);
  for (let i = 0, n = 0; i < marked.length; i++) if (marked[i] === 1) unusual[n++] = i;
  return unusual;
}
