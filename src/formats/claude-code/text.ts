import type { LineText } from '../format.js';
import { isObject } from '../pi/json.js';

/** What a Claude Code line says: its text blocks (or string content), called tools, time and working directory. */
export function readText(value: unknown): LineText {
  const line: LineText = { text: '', toolNames: [] };
  if (!isObject(value)) return line;
  if (typeof value.cwd === 'string') line.cwd = value.cwd;
  const time = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  if (!Number.isNaN(time)) line.time = time;
  const content = isObject(value.message) ? value.message.content : undefined;
  if (typeof content === 'string') line.text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'tool_use' && typeof block.name === 'string') line.toolNames.push(block.name);
    }
    line.text = parts.join('\n');
  }
  return line;
}
