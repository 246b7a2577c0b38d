import type { Entry } from '../entry.js';
import type { EntryStore } from '../entry-store.js';
import { SIZE_KINDS } from '../entry-bits.js';
import type { SizeKind, SizeParts } from './request-size.js';

/**
 * A string at least this long is noted on its entry (Entry.longString): the smallest cap a
 * provider puts on one string (OpenAI Chat's 1,048,576 characters, 2024), so every cap above it is checked too.
 */
export const LONG_STRING = 1_048_576;

/** Notes a string of the content, when it is long enough to matter (see LONG_STRING). */
export function noteString(entry: Entry, pointer: string, length: number): void {
  if (length < LONG_STRING) return;
  const held = entry.longString;
  if (held === undefined || length > held.length) entry.longString = { pointer, length };
}

/** What one entry adds to the request: its bytes, of which kind, and by kind when more than one. */
export interface EntrySize {
  bytes: number;
  /** The kind of its bytes (the largest, when there are several); undefined when it sends nothing. */
  kind: SizeKind | undefined;
  /** Bytes by kind; one member for an entry of one kind. */
  parts: SizeParts;
}

/**
 * Notes `bytes` of `kind` on a decoded entry. Most entries hold one kind: they keep a number and
 * a kind, and only an entry of several kinds gets an object (Entry.sizeParts; rows in the store, see size-part-rows.ts).
 */
export function addSize(entry: Entry, kind: SizeKind, bytes: number): void {
  if (!(bytes > 0)) return;
  const held = entry.sizeKind;
  if (held === undefined) {
    entry.sizeKind = kind;
    entry.sizeBytes = bytes;
    return;
  }
  let parts = entry.sizeParts;
  if (parts === undefined) {
    if (held === kind) {
      entry.sizeBytes += bytes;
      return;
    }
    parts = { [held]: entry.sizeBytes };
  }
  const sum = (parts[kind] ?? 0) + bytes;
  parts[kind] = sum;
  entry.sizeParts = parts;
  entry.sizeBytes += bytes;
  if (sum > parts[entry.sizeKind!]!) entry.sizeKind = kind;
}

/** Entry i's size facts, read from the store's columns. */
export function entrySize(store: EntryStore, i: number): EntrySize {
  const bytes = store.sizeBytes[i]!;
  const code = store.sizeCode(i);
  const kind = code === 0 ? undefined : SIZE_KINDS[code - 1];
  const parts = store.partsOf(i);
  return { bytes, kind, parts: parts ?? (kind === undefined ? {} : { [kind]: bytes }) };
}
