import type { LineText } from '../format.js';
import { isObject, timeOf, type Json } from '../json.js';
import { CALL_ITEMS } from './items.js';

/** What a rollout line says: a message's text items, the summary of a compaction, the tool a call names. Reasoning is left out. */
export function readText(value: unknown): LineText {
  if (!isObject(value)) return { text: '', toolNames: [] };
  const payload = isObject(value.payload) ? value.payload : {};
  const line: LineText = { text: '', toolNames: [] };
  if (value.type === 'response_item') {
    const call = typeof payload.type === 'string' ? CALL_ITEMS.get(payload.type) : undefined;
    const name = call?.name ?? payload.name;
    if (call !== undefined && typeof name === 'string') line.toolNames.push(name.trim());
    if (payload.type === 'message') line.text = messageText(payload);
  } else if (value.type === 'compacted' && typeof payload.message === 'string') {
    line.text = payload.message;
  } else if (value.type === 'session_meta' && typeof payload.cwd === 'string') {
    line.cwd = payload.cwd;
  }
  const time = timeOf(value);
  if (time !== undefined) line.time = time;
  return line;
}

function messageText(message: Json): string {
  if (!Array.isArray(message.content)) return '';
  const parts: string[] = [];
  for (const item of message.content) if (isObject(item) && typeof item.text === 'string') parts.push(item.text);
  return parts.join('\n');
}
