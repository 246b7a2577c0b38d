import type { LineText } from '../format.js';
import { isObject, timeOf } from '../json.js';
import { ASSISTANT_MESSAGE, SESSION_START, USER_MESSAGE } from './events.js';

/** What an event says: a prompt's or reply's text, the tools a reply calls, the time, the start's working directory. */
export function readText(value: unknown): LineText {
  if (!isObject(value)) return { text: '', toolNames: [] };
  const data = isObject(value.data) ? value.data : {};
  const line: LineText = { text: '', toolNames: [] };
  if ((value.type === USER_MESSAGE || value.type === ASSISTANT_MESSAGE) && typeof data.content === 'string') line.text = data.content;
  if (value.type === ASSISTANT_MESSAGE && Array.isArray(data.toolRequests)) {
    for (const request of data.toolRequests) if (isObject(request) && typeof request.name === 'string') line.toolNames.push(request.name.trim());
  }
  if (value.type === SESSION_START && isObject(data.context) && typeof data.context.cwd === 'string') line.cwd = data.context.cwd;
  const time = timeOf(value);
  if (time !== undefined) line.time = time;
  return line;
}
