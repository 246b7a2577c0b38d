import type { LineText } from '../format.js';
import { CALL_TYPES } from './canonical.js';
import { isObject } from './json.js';

/** What a pi line says: text blocks joined, thinking left out (it is not what the user saw). */
export function readText(value: unknown): LineText {
  const line: LineText = { text: '', toolNames: [] };
  if (!isObject(value)) return line;
  if (value.type === 'session' && typeof value.cwd === 'string') line.cwd = value.cwd;
  const time = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  if (!Number.isNaN(time)) line.time = time;
  const body = isObject(value.message) ? value.message : value.type === 'custom_message' || value.type === 'branch_summary' || value.type === 'compaction' ? value : undefined;
  if (body === undefined) return line;
  const content = body.content ?? body.summary ?? body.output;
  if (typeof content === 'string') line.text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (CALL_TYPES.has(String(block.type)) && typeof block.name === 'string') line.toolNames.push(block.name.trim());
    }
    line.text = parts.join('\n');
  }
  if (typeof body.command === 'string') line.text = `$ ${body.command}\n${line.text}`;
  return line;
}
