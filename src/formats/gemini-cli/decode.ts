import { Entry } from '../../model/entry.js';
import type { Decoder } from '../format.js';
import { isObject, nonEmptyString, textIn, utf8Value, type Json } from '../json.js';
import { recordKind } from './records.js';
import { summarize, summarizeContent, type MessageSummary } from './summary.js';

/**
 * What a line does to the message list the client replays (see replay.ts): a message (a copy of
 * it), a new list (`$set.messages`, a legacy record's list, a checkpoint's contents: `clear` when
 * it replaces the list), a rewind.
 */
export type ReplayNote =
  | ({ kind: 'message' } & MessageCopy)
  | { kind: 'list'; clear: boolean; messages: MessageCopy[] }
  | { kind: 'rewind'; id: string };

/**
 * A copy of a message. Its summary is dropped once a later line of the same thread sets the same
 * id, or replaces the whole list: in the replay a later set always replaces it, so only its place
 * is still needed (see replay.ts), and a new list leaves nothing of it. A message line's summary
 * is made only once the next message line is read (or the input ends, see end): most messages are
 * written several times in a row (a tool call before and after its result), and only the last copy
 * needs one.
 */
export interface MessageCopy {
  id: string;
  /** Where the copy sits in its line ('' for a line of its own); kept with the summary's place in the list. */
  pointer: string;
  summary: MessageSummary | undefined;
}

export interface GeminiCliDecoderState {
  sawMetadata: boolean;
}

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.jsonl`). The file is a log the
 * client replays (`loadConversationRecord`), so which copy of a message is sent is known only at
 * the end of the file: each line is decoded on its own, bookkeeping to the rest of the program,
 * with a note of what it does to the list (`replayNote`, a small summary of each message, never
 * its content); the format settles the replay from the notes (replay.ts).
 */
export class GeminiCliDecoder implements Decoder {
  readonly readsLatin1 = true;
  private sawMetadata: boolean;
  /** The last copy of each message id read by this decoder, whose summary a later copy drops. */
  private readonly latest = new Map<string, MessageCopy>();
  /**
   * The last message line read, not summarised yet: the client writes a message again a line or
   * two later (a call before and after its result), and a copy written again is never summarised.
   */
  private pending: { copy: MessageCopy; message: Json; latin1: boolean } | undefined;

  constructor(state?: GeminiCliDecoderState) {
    this.sawMetadata = state?.sawMetadata ?? false;
  }

  state(): GeminiCliDecoderState {
    return { sawMetadata: this.sawMetadata };
  }

  decode(read: unknown, line: number, index: number, latin1 = false): Entry {
    const entry = new Entry(index, line);
    const kind = recordKind(read);
    // Read as latin1 (see Decoder.decode): a message's summary reads its strings as UTF-8 itself; the
    // other lines (lists, rewinds, metadata: few) are read as UTF-8 at once.
    const value = latin1 && kind !== 'message' ? utf8Value(read) : read;
    if (kind === 'metadata' && !this.sawMetadata) {
      this.sawMetadata = true;
      entry.kind = 'header';
      entry.header = { valid: true, id: nonEmptyString((value as Json).sessionId) };
    } else {
      // A log in file order: each line follows the one before it. No line is named by another, so none needs an id.
      entry.linksToPrevious = true;
      entry.kind = 'state';
    }
    if (kind === 'message') {
      const message = value as Json;
      const copy: ReplayNote = { kind: 'message', id: textIn(message.id as string, latin1), pointer: '', summary: undefined };
      if (this.pending?.copy.id !== copy.id) this.end();
      this.pending = { copy, message, latin1 };
      this.supersede(copy);
      entry.replayNote = copy;
      return entry;
    }
    const note = noteOf(value, kind);
    if (note === undefined) return entry;
    this.end();
    if (note.kind === 'list') {
      // A list that replaces the history leaves no earlier copy in it: none of their summaries is read again.
      if (note.clear) this.forgetAll();
      note.messages.forEach((copy) => this.supersede(copy));
    }
    entry.replayNote = note;
    return entry;
  }

  /** Summarises the message held back: the input has ended, or another message follows it. */
  end(): void {
    if (this.pending === undefined) return;
    this.pending.copy.summary = summarize(this.pending.message, '', this.pending.latin1);
    this.pending = undefined;
  }

  private forgetAll(): void {
    for (const copy of this.latest.values()) copy.summary = undefined;
    this.latest.clear();
  }

  private supersede(copy: MessageCopy): void {
    const earlier = this.latest.get(copy.id);
    if (earlier !== undefined) earlier.summary = undefined;
    this.latest.set(copy.id, copy);
  }
}

function noteOf(value: unknown, kind: ReturnType<typeof recordKind>): ReplayNote | undefined {
  if (kind === 'checkpoint') {
    // A checkpoint's contents have no ids: each is named by its place.
    const contents = Array.isArray(value) ? value : ((value as Json).history as unknown[]);
    const base = Array.isArray(value) ? '' : '/history';
    return { kind: 'list', clear: true, messages: contents.map((content, k) => copyOf(`#${k}`, summarizeContent(content as Json, `${base}/${k}`))) };
  }
  if (!isObject(value)) return undefined;
  switch (kind) {
    case 'rewind':
      return { kind: 'rewind', id: value.$rewindTo as string };
    case 'patch': {
      const messages = (value.$set as Json).messages;
      return Array.isArray(messages) ? list(messages, '/$set/messages', true) : undefined;
    }
    case 'metadata':
      // An older build's whole-file record (or one converted to a line) carries the list with the metadata, and adds to it.
      return Array.isArray(value.messages) ? list(value.messages, '/messages', false) : undefined;
    default:
      return undefined;
  }
}

function list(messages: unknown[], pointer: string, clear: boolean): ReplayNote {
  const found: MessageCopy[] = [];
  messages.forEach((message, k) => {
    if (isObject(message) && typeof message.id === 'string') found.push(copyOf(message.id, summarize(message, `${pointer}/${k}`)));
  });
  return { kind: 'list', clear, messages: found };
}

function copyOf(id: string, summary: MessageSummary): MessageCopy {
  return { id, pointer: summary.pointer, summary };
}
