import { Entry, positionalId } from '../../model/entry.js';
import type { Decoder, LateFacts } from '../format.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { judgeHistory, type ReplayedMessage } from './history.js';
import { recordKind } from './records.js';
import { summarize, summarizeContent } from './summary.js';

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.jsonl`). The file is a log the
 * client replays (`loadConversationRecord`): a message is re-appended whole under its id each
 * time it changes and the last copy wins, in the place of the first; `$set.messages` replaces the
 * list; `$rewindTo` takes back a message and everything after it (all of them for an id it does
 * not hold). So which copy of a message is sent is known only at the end of the file: the
 * decoder keeps a small summary of each winning copy and judges the history once, in `finish`.
 * Every line is bookkeeping to the rest of the program; the problems sit on the entries of the
 * lines that hold the winning copies, with pointers into them.
 */
export class GeminiCliDecoder implements Decoder {
  /** The replayed list so far, in the client's order (a Map keeps the place of a key set again). */
  private readonly messages = new Map<string, ReplayedMessage>();
  private sawMetadata = false;
  /** Rewinds to an id the list does not hold: the client drops every message before them. */
  private readonly wipes: Array<{ entry: number; id: string }> = [];

  /** Nothing another thread could continue from: a format whose decoder settles at the end is read by one (see Decoder.finish). */
  state(): undefined {
    return undefined;
  }

  decode(value: unknown, line: number, index: number): Entry {
    const entry = new Entry(index, line);
    const kind = recordKind(value);
    if (kind === 'metadata' && !this.sawMetadata) {
      this.sawMetadata = true;
      entry.kind = 'header';
      entry.header = { valid: true, id: nonEmptyString((value as Json).sessionId) };
    } else {
      // A log in file order: each line follows the one before it, named by its place.
      entry.id = positionalId(index);
      entry.linksToPrevious = true;
      entry.kind = 'state';
    }
    if (kind === 'checkpoint') {
      this.contents(Array.isArray(value) ? value : ((value as Json).history as unknown[]), index, Array.isArray(value) ? '' : '/history');
      return entry;
    }
    if (!isObject(value)) return entry;
    switch (kind) {
      case 'rewind':
        this.rewind(value.$rewindTo as string, index);
        break;
      case 'message':
        this.messages.set(value.id as string, { entry: index, summary: summarize(value, '') });
        break;
      case 'patch':
        if (Array.isArray((value.$set as Json).messages)) this.replace((value.$set as Json).messages as unknown[], index, '/$set/messages');
        break;
      case 'metadata':
        // An older build's whole-file record (or one converted to a line) carries the list with the metadata.
        if (Array.isArray(value.messages)) this.replace(value.messages, index, '/messages', false);
        break;
      default:
        break;
    }
    return entry;
  }

  /** The pairing problems of the history the client would send, the rewinds that wipe it and the placeholder turns in it, by entry index. */
  finish(): Map<number, LateFacts> {
    const facts = new Map<number, LateFacts>();
    for (const [entry, problems] of judgeHistory(this.messages.values())) facts.set(entry, { keptHistoryProblems: problems });
    for (const { entry, id } of this.wipes) facts.set(entry, { ...facts.get(entry), wipesHistory: id });
    for (const { entry, summary } of this.messages.values()) {
      if (!summary.placeholder) continue;
      const found = facts.get(entry) ?? {};
      facts.set(entry, { ...found, placeholderTurns: [...(found.placeholderTurns ?? []), summary.pointer] });
    }
    return facts;
  }

  private rewind(id: string, index: number): void {
    if (!this.messages.has(id)) {
      if (this.messages.size > 0) this.wipes.push({ entry: index, id });
      this.messages.clear();
      return;
    }
    let found = false;
    for (const key of [...this.messages.keys()]) {
      found ||= key === id;
      if (found) this.messages.delete(key);
    }
  }

  /** A checkpoint's contents, each its own turn (they have no ids: named by place). */
  private contents(list: unknown[], index: number, pointer: string): void {
    list.forEach((content, k) => this.messages.set(`#${k}`, { entry: index, summary: summarizeContent(content as Json, `${pointer}/${k}`) }));
  }

  private replace(list: unknown[], index: number, pointer: string, clear = true): void {
    if (clear) this.messages.clear();
    list.forEach((message, k) => {
      if (isObject(message) && typeof message.id === 'string') this.messages.set(message.id, { entry: index, summary: summarize(message, `${pointer}/${k}`) });
    });
  }
}
