import type { ToolUse } from './compaction.js';
import { isObject } from './json.js';

const PATH_FIELDS = ['file_path', 'path', 'filePath', 'absolute_path', 'notebook_path', 'file', 'filename', 'target_file'];
const COMMAND_FIELDS = ['command', 'cmd'];

/**
 * A call as a summary names it, from the tool's name and its arguments (an object, or JSON text
 * of one): the file it was given, the command it ran. The argument names are the tools', shared by
 * every agent's file tools, not any transcript format's.
 */
export function toolUse(name: unknown, args: unknown): ToolUse {
  const use: ToolUse = { name: typeof name === 'string' ? name : '' };
  let input = args;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return use;
    }
  }
  if (!isObject(input)) return use;
  const path = PATH_FIELDS.map((field) => input[field]).find((value) => typeof value === 'string' && value !== '');
  if (typeof path === 'string') use.path = path;
  const command = COMMAND_FIELDS.map((field) => input[field]).find((value) => (typeof value === 'string' && value !== '') || Array.isArray(value));
  if (typeof command === 'string') use.command = command;
  else if (Array.isArray(command)) use.command = command.filter((part) => typeof part === 'string').join(' ');
  return use;
}

/** The text of a message's content: a string, or its text blocks joined (`types` names the text block types). */
export function plainText(content: unknown, types: ReadonlySet<string> = TEXT_TYPES): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => isObject(block) && typeof block.type === 'string' && types.has(block.type) && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text)
    .join('\n');
}

const TEXT_TYPES: ReadonlySet<string> = new Set(['text', 'input_text', 'output_text']);
