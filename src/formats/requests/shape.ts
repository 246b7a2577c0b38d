import { BRIDGE_TEXTS, inApplyOrder, type EntryEdit, type NewLine } from '../../model/edits.js';
import type { ReplaySemantics } from '../../model/transcript.js';
import type { Decoder, Encoder } from '../format.js';
import { isObject, type Json } from '../json.js';

/** The provider API a request shape talks to (the ids of src/providers). */
export type ShapeProvider = 'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini';

/** One provider's request shape: where its conversation list sits and how its items read and are written. */
export interface RequestShape {
  provider: ShapeProvider;
  /** The member of the request holding the conversation. */
  list: 'messages' | 'input' | 'contents';
  semantics: ReplaySemantics;
  /** A decoder of the list's items; `list` is the list's pointer inside the line. */
  createDecoder(list: string): Decoder;
  encoder: Encoder;
  /** The repaired list as the provider wants it, when items must be grouped again (Gemini's single response turn). */
  arrange?(items: unknown[]): unknown[];
}

/** What a shape writes for the lines a repair adds: a result for an unanswered call, a bridge for turn order. */
export interface NewItems {
  result(line: Extract<NewLine, { kind: 'missing-result' }>, source: unknown): unknown;
  bridge(role: 'user' | 'assistant', text: string): unknown;
}

/** The encoder of a request shape: edits go to each item in apply order, ids stay as seeded, and a request has no header. */
export function itemEncoder(applyEdit: (item: Json, edit: EntryEdit) => void, items: NewItems): Encoder {
  return {
    apply(value, edits) {
      if (!isObject(value)) return;
      for (const edit of inApplyOrder(edits)) applyEdit(value, edit);
    },
    newId: (seed) => seed,
    create(line, source) {
      if (line.kind === 'bridge') return items.bridge(line.role, BRIDGE_TEXTS[line.role]);
      if (line.kind !== 'missing-result') throw new Error('a request has no header');
      return items.result(line, source);
    },
  };
}
