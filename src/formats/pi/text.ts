import type { LineText } from '../format.js';
import { CALL_TYPES } from './canonical.js';
import { contentText, isObject, timeOf } from '../json.js';

/** What a pi line says: text blocks joined, thinking left out (it is not what the user saw). */
export function readText(value: unknown): LineText {
  if (!isObject(value)) return { text: '', toolNames: [] };
  const body = isObject(value.message) ? value.message : value.type === 'custom_message' || value.type === 'branch_summary' || value.type === 'compaction' ? value : undefined;
  const line: LineText = contentText(body === undefined ? undefined : body.content ?? body.summary ?? body.output, (type) => CALL_TYPES.has(String(type)));
  if (value.type === 'session' && typeof value.cwd === 'string') line.cwd = value.cwd;
  const time = timeOf(value);
  if (time !== undefined) line.time = time;
  if (body !== undefined && typeof body.command === 'string') line.text = `$ ${body.command}\n${line.text}`;
  return line;
}
