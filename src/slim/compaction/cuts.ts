import type { Analysis } from '../../model/analysis.js';
import { ASSISTANT, KIND_CODE, KIND_MASK, ROLE_SHIFT, USER } from '../../model/entry-bits.js';

const MESSAGE = KIND_CODE['message'];

const cache = new WeakMap<Analysis, Uint8Array>();

/**
 * Replay positions a compaction may keep history from, as 1s: a user prompt, or the first line of
 * an assistant message, with no call before it whose result is at or after it (so no pair is cut
 * in two, parallel results on side branches included) and not the first position (something must
 * go). Made once per analysis.
 */
export function cutPoints(analysis: Analysis): Uint8Array {
  let cuts = cache.get(analysis);
  if (cuts !== undefined) return cuts;
  const { entries } = analysis;
  const { indices } = analysis.replay.context;
  const n = indices.length;
  // crossing[at] > 0: some pair has its call before `at` and its result at or after it.
  const crossing = new Int32Array(n + 1);
  // By the ids' handles in the store: a map of their strings took 20 MB on 1 GiB of Claude Code.
  const callAt = new Int32Array(entries.callIds.count).fill(-1);
  for (let at = 0; at < n; at++) {
    const i = indices[at]!;
    if (entries.hasCalls(i)) {
      for (let k = entries.callStart(i); k < entries.callEnd(i); k++) if (entries.callId[k] !== -1) callAt[entries.callId[k]!] = at;
    }
    if (entries.hasResults(i)) {
      for (let k = entries.resultStart(i); k < entries.resultEnd(i); k++) {
        const id = entries.resultCallId[k]!;
        const from = id === -1 ? -1 : callAt[id]!;
        if (from === -1 || from >= at) continue;
        crossing[from + 1]! += 1;
        crossing[at + 1]! -= 1;
      }
    }
  }
  cuts = new Uint8Array(n);
  let open = 0;
  for (let at = 0; at < n; at++) {
    open += crossing[at]!;
    const i = indices[at]!;
    const info = entries.info[i]!;
    if (at === 0 || open > 0 || (info & KIND_MASK) !== MESSAGE) continue;
    const role = (info >> ROLE_SHIFT) & 0x7;
    const group = entries.group(i);
    const startsMessage = group === -1 || group !== entries.group(indices[at - 1]!);
    if (role === USER || (role === ASSISTANT && startsMessage)) cuts[at] = 1;
  }
  cache.set(analysis, cuts);
  return cuts;
}
