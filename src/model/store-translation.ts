import type { StringTable } from './columns.js';
import type { IdTable } from './id-table.js';

/** The tables an EntryStore interns its ids and strings in: what two stores translate between. */
export interface StoreTables {
  readonly ids: IdTable;
  readonly callIds: IdTable;
  readonly strings: StringTable;
}

/** Handles and string codes of one store's tables in another's; negative handles (none, null) stay. */
export interface Translation {
  id(handle: number): number;
  callId(handle: number): number;
  string(code: number): number;
}

const same = (value: number) => value;
export const SHARED: Translation = { id: same, callId: same, string: same };

/** Looks each handle of `from` up in `into`'s tables once, the first time it is met. */
export function translation(from: StoreTables, into: StoreTables): Translation {
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
