import type { Entry } from '../../model/entry.js';
import { addSize } from '../../model/size/facts.js';
import type { SizeKind } from '../../model/size/request-size.js';
import { isObject, type Json } from '../json.js';
import { addContent, addString, jsonSize, textBytes, usageTotal } from '../json-size.js';
import { CALL_ITEMS, OUTPUT_ITEMS } from './items.js';

const isImage = (part: Json) => part.type === 'input_image';

/**
 * What one history item sends, by kind (see Entry.sizeBytes): message parts as text, a call's
 * name and arguments, an output, reasoning's summary and encrypted content as thinking (sent back
 * whole). Images are noted with their refs.
 */
export function noteCodexItemSize(item: Json, entry: Entry, latin1: boolean): void {
  const type = item.type;
  if (type === 'message') {
    addContent(entry, entry.role === 'user' || entry.role === 'assistant' ? 'text' : 'other', item.content, '/payload/content', latin1, isImage);
  } else if (typeof type === 'string' && CALL_ITEMS.has(type)) {
    const shape = CALL_ITEMS.get(type)!;
    const args = item[shape.arguments];
    addSize(entry, 'toolCall', (typeof item.name === 'string' ? textBytes(item.name, latin1) : 0) + (typeof args === 'string' ? textBytes(args, latin1) : jsonSize(args, latin1)));
  } else if (typeof type === 'string' && OUTPUT_ITEMS.has(type)) {
    noteOutput(item.output, entry, latin1);
  } else if (type === 'reasoning') {
    addContent(entry, 'thinking', item.summary, '/payload/summary', latin1);
    addContent(entry, 'thinking', item.content, '/payload/content', latin1);
    if (typeof item.encrypted_content === 'string') addSize(entry, 'thinking', textBytes(item.encrypted_content, latin1));
  } else {
    addSize(entry, 'other', jsonSize(item, latin1));
  }
  for (const image of entry.images ?? []) addSize(entry, 'image', image.base64Length ?? 0);
}

/** A call's output: a string, `{content, …}`, or a list of content items. */
function noteOutput(output: unknown, entry: Entry, latin1: boolean): void {
  const kind: SizeKind = 'toolResult';
  if (isObject(output) && 'content' in output) addContent(entry, kind, output.content, '/payload/output/content', latin1, isImage);
  else if (typeof output === 'string') addString(entry, kind, output, '/payload/output', latin1);
  else addContent(entry, kind, output, '/payload/output', latin1, isImage);
}

/** A compaction's summary and the history it keeps, sent in place of what it replaced. */
export function noteCodexCompactionSize(payload: Json, entry: Entry, latin1: boolean): void {
  addString(entry, 'text', payload.message, '/payload/message', latin1);
  if (Array.isArray(payload.replacement_history)) addSize(entry, 'text', jsonSize(payload.replacement_history, latin1));
}

/** A `token_count` event's input tokens (cached ones are part of them): the request the last response answered. */
export function codexUsage(payload: Json): number | undefined {
  const info = payload.info;
  if (!isObject(info) || !isObject(info.last_token_usage)) return undefined;
  return usageTotal(info.last_token_usage.input_tokens);
}

/** The context window a `token_count` event records for the model (`info.model_context_window`), when it records one. */
export function codexWindow(payload: Json): number | undefined {
  const info = payload.info;
  const window = isObject(info) ? info.model_context_window : undefined;
  return typeof window === 'number' && Number.isSafeInteger(window) && window > 0 ? window : undefined;
}
