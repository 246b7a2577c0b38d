import type { EntryStore } from './entry-store.js';

/** Handles and string codes of one store's tables in another's; negative handles (none, null) stay. */
export interface Translation {
  id(handle: number): number;
  callId(handle: number): number;
  string(code: number): number;
}

const same = (value: number) => value;
export const SHARED: Translation = { id: same, callId: same, string: same };

/** Looks each handle of `from` up in `into`'s tables once, the first time it is met. */
export function translation(from: EntryStore, into: EntryStore): Translation {
  const table = (count: number, add: (handle: number) => number) => {
    const known = new Int32Array(count).fill(-1);
    return (handle: number) => (handle < 0 ? handle : known[handle] !== -1 ? known[handle]! : (known[handle] = add(handle)));
  };
  return {
    id: table(from.ids.count, (handle) => into.ids.internFrom(from.ids, handle)),
    callId: table(from.callIds.count, (handle) => into.callIds.internFrom(from.callIds, handle)),
    string: table(from.strings.size, (code) => into.strings.code(from.strings.text(code))),
  };
}
