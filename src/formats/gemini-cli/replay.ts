import type { EntryStore } from '../../model/entry-store.js';
import type { LateFacts } from '../format.js';
import type { SizeKind } from '../../model/size/request-size.js';
import type { MessageCopy, ReplayNote } from './decode.js';
import { historyEnding } from './ending.js';
import { judgeHistory, type ReplayedMessage } from './history.js';

/**
 * Replays the notes of a whole file as the client replays its log (`loadConversationRecord`,
 * 0.61.0): a message is set under its id and the last copy wins, in the place of the first (a Map
 * keeps the place of a key set again); a list replaces what came before (or adds to it);
 * `$rewindTo` takes back that message and everything after it, and every message when it names
 * none the list holds. Then judges the history the client sends, by entry: its pairing problems,
 * the rewinds that wiped it, its placeholder turns (not the one the client itself would add to
 * close it), and how it ends (see historyEnding).
 */
export function settleReplay(entries: EntryStore): Map<number, LateFacts> {
  const messages = new Map<string, ReplayedMessage>();
  // The ids in the list's order with each one's place, so a rewind deletes from its message on without walking the list before it.
  const order: string[] = [];
  const placeOf = new Map<string, number>();
  const set = (copy: MessageCopy, entry: number) => {
    if (!placeOf.has(copy.id)) placeOf.set(copy.id, order.push(copy.id) - 1);
    place(messages, copy, entry);
  };
  const clear = () => {
    messages.clear();
    order.length = 0;
    placeOf.clear();
  };
  const wipes: Array<{ entry: number; id: string }> = [];
  const rewound = new Set<string>();
  for (let entry = 0; entry < entries.length; entry++) {
    const note = entries.note(entry) as ReplayNote | undefined;
    if (note === undefined) continue;
    if (note.kind === 'message') set(note, entry);
    else if (note.kind === 'list') {
      if (note.clear) clear();
      for (const copy of note.messages) set(copy, entry);
    } else {
      rewound.add(note.id);
      if (!messages.has(note.id)) {
        if (messages.size > 0) wipes.push({ entry, id: note.id });
        clear();
        continue;
      }
      const from = placeOf.get(note.id)!;
      for (let at = from; at < order.length; at++) {
        messages.delete(order[at]!);
        placeOf.delete(order[at]!);
      }
      order.length = from;
    }
  }
  const facts = new Map<number, LateFacts>();
  for (const [entry, problems] of judgeHistory(messages.values())) facts.set(entry, { keptHistoryProblems: problems });
  for (const { entry, id } of wipes) facts.set(entry, { ...facts.get(entry), wipesHistory: id });
  const replayed = [...messages.values()];
  const stale = staleBefore(replayed);
  for (const message of replayed) addSize(facts, message, stale);
  const ending = historyEnding(replayed);
  for (const message of replayed) {
    if (!message.summary.placeholder || message === ending.closing) continue;
    const found = facts.get(message.entry) ?? {};
    facts.set(message.entry, { ...found, placeholderTurns: [...(found.placeholderTurns ?? []), message.summary.pointer] });
  }
  if (ending.results !== undefined) facts.set(ending.results.entry, { ...facts.get(ending.results.entry), trailingResults: true });
  if (ending.empty.length === 0) return facts;
  // A message a rewind names stays: without it the rewind would take back the whole history.
  const empty = new Set<string>();
  for (const [id, message] of messages) if (ending.empty.includes(message) && !rewound.has(id)) empty.add(id);
  if (empty.size > 0) noteCopies(entries, empty, facts);
  return facts;
}

/** Every copy of these messages in the file, where it sits: dropping only the last would let an earlier one win again. */
function noteCopies(entries: EntryStore, ids: ReadonlySet<string>, facts: Map<number, LateFacts>): void {
  for (let entry = 0; entry < entries.length; entry++) {
    const note = entries.note(entry) as ReplayNote | undefined;
    if (note === undefined || note.kind === 'rewind') continue;
    const copies = note.kind === 'message' ? [note] : note.messages;
    const pointers = copies.filter((copy) => ids.has(copy.id)).map((copy) => copy.pointer);
    if (pointers.length > 0) facts.set(entry, { ...facts.get(entry), emptyTurns: pointers });
  }
}

/**
 * A copy set under its id: it wins, in the place of the first copy, where that copy sits is kept
 * (a turn put before the message goes there); not the first copy's summary, which the decoder
 * dropped once it read a later copy (see MessageCopy): none without one is left in the end.
 */
function place(messages: Map<string, ReplayedMessage>, copy: MessageCopy, entry: number): void {
  const before = messages.get(copy.id);
  const replayed: ReplayedMessage = { entry, pointer: copy.pointer, summary: copy.summary! };
  if (before !== undefined) replayed.place = before.place ?? { entry: before.entry, pointer: before.pointer };
  messages.set(copy.id, replayed);
}

/**
 * Usage recorded at or before this time counted history a compaction took out: the summary turn
 * the log replays first is stamped with the time of the latest message it was written after.
 */
function staleBefore(replayed: readonly ReplayedMessage[]): string | undefined {
  let stamp: string | undefined;
  for (const message of replayed) if (message.summary.compactedAt !== undefined) stamp = message.summary.compactedAt;
  return stamp;
}

/** A replayed message's size, added to its entry's (a line that sets a whole list holds many). */
function addSize(facts: Map<number, LateFacts>, message: ReplayedMessage, stale: string | undefined): void {
  const size = message.summary.size;
  if (size === undefined) return;
  const found = facts.get(message.entry) ?? {};
  const held = found.size ?? { parts: {} };
  for (const [kind, bytes] of Object.entries(size.parts ?? { [size.kind]: size.bytes }) as Array<[SizeKind, number]>) held.parts[kind] = (held.parts[kind] ?? 0) + bytes;
  if (size.usage !== undefined && !(stale !== undefined && size.usageAt !== undefined && size.usageAt <= stale)) held.usage = size.usage;
  if (size.model !== undefined) held.model = size.model;
  facts.set(message.entry, { ...found, size: held });
}
