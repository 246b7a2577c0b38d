import type { LineText } from '../format.js';
import { contentText, isObject, timeOf } from '../json.js';

/** What a Claude Code line says: its text blocks (or string content), called tools, time and working directory. */
export function readText(value: unknown): LineText {
  if (!isObject(value)) return { text: '', toolNames: [] };
  const line: LineText = contentText(isObject(value.message) ? value.message.content : undefined, (type) => type === 'tool_use');
  if (typeof value.cwd === 'string') line.cwd = value.cwd;
  const time = timeOf(value);
  if (time !== undefined) line.time = time;
  return line;
}
