import type { LineText } from '../format.js';
import { isObject, timeOf } from '../json.js';

/** What a Qwen Code record says: its text parts (thoughts left out), called tools, time and working directory. */
export function readText(value: unknown): LineText {
  if (!isObject(value)) return { text: '', toolNames: [] };
  const texts: string[] = [];
  const toolNames: string[] = [];
  const parts = isObject(value.message) && Array.isArray(value.message.parts) ? value.message.parts : [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
    else if (isObject(part.functionCall) && typeof part.functionCall.name === 'string') toolNames.push(part.functionCall.name.trim());
  }
  const line: LineText = { text: texts.join('\n'), toolNames };
  if (typeof value.cwd === 'string') line.cwd = value.cwd;
  const time = timeOf(value);
  if (time !== undefined) line.time = time;
  return line;
}
