import type { LineText } from '../format.js';
import { isObject, timeOf } from '../json.js';
import { contentText, recordKind } from './records.js';

/** What a session line says: a message's text and the tools it calls; a metadata line's time. Thoughts are left out. */
export function readText(value: unknown): LineText {
  const line: LineText = { text: '', toolNames: [] };
  if (!isObject(value)) return line;
  if (recordKind(value) === 'message') {
    line.text = contentText(value.content);
    if (Array.isArray(value.toolCalls)) for (const call of value.toolCalls) if (isObject(call) && typeof call.name === 'string') line.toolNames.push(call.name.trim());
  }
  const time = timeOf(value) ?? (typeof value.startTime === 'string' ? Date.parse(value.startTime) : undefined);
  if (time !== undefined && !Number.isNaN(time)) line.time = time;
  return line;
}
