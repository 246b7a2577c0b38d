import { flagMask } from './entry-bits.js';
import { PARTIAL, type EntryStore } from './entry-store.js';

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
  const odd = oddResultName(store);
  for (let k = 0; k < store.results; k++) if (odd(k)) marked[store.resultOwner[k]!] = 1;
  let count = 0;
  for (let i = 0; i < marked.length; i++) count += marked[i]!;
  const unusual = new Uint32Array(count);
  for (let i = 0, n = 0; i < marked.length; i++) if (marked[i] === 1) unusual[n++] = i;
  return unusual;
}

/**
 * Whether result k carries a tool name field that is missing, blank or padded (what
 * missing-tool-result-name reports and repair fills from the call). Each distinct name is judged once.
 */
export function oddResultName(store: EntryStore): (k: number) => boolean {
  // Per name string code + 1: 0 not judged yet, 1 fine, 2 blank or padded.
  const verdicts = new Uint8Array(store.strings.size + 1);
  return (k) => {
    if (store.resultNamePointer[k] === 0) return false;
    const name = store.resultName[k]!;
    if (name === 0) return true;
    if (verdicts[name] === 0) {
      const text = store.strings.text(name - 1);
      verdicts[name] = text.trim() !== '' && text.trim() === text ? 1 : 2;
    }
    return verdicts[name] === 2;
  };
}
