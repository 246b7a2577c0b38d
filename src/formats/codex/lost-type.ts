import type { Json } from '../json.js';

/**
 * What a `response_item` payload without its `type` was, when its fields leave one answer. The
 * type is the tag Codex reads the item by, so without it Codex skips the whole line. A message
 * has a role and content; a function call a name and string arguments; a custom tool call a name
 * and input; an output a call id and an output, of the kind of the call it answers (a custom tool
 * call's own kind, else a function call's); reasoning a summary list. Anything else, or fields of
 * two kinds at once, stays unknown.
 */
export function inferItemType(item: Json, customCalls: ReadonlySet<string>): string | undefined {
  const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
  const named = typeof item.name === 'string';
  const found: string[] = [];
  if (typeof item.role === 'string' && Array.isArray(item.content)) found.push('message');
  if (callId !== undefined && named && typeof item.arguments === 'string') found.push('function_call');
  if (callId !== undefined && named && typeof item.input === 'string') found.push('custom_tool_call');
  if (callId !== undefined && !named && 'output' in item) found.push(customCalls.has(callId) ? 'custom_tool_call_output' : 'function_call_output');
  if (callId === undefined && Array.isArray(item.summary) && !('role' in item)) found.push('reasoning');
  return found.length === 1 ? found[0] : undefined;
}

/** The call id of a custom tool call, which its untyped output would need to name its kind. */
export function customCallId(item: Json): string | undefined {
  return item.type === 'custom_tool_call' && typeof item.call_id === 'string' ? item.call_id : undefined;
}

/** The content part types Codex reads a message's parts as (`ContentItem`); any other and the item does not deserialize. */
const PART_TYPES = new Set(['input_text', 'input_image', 'output_text', 'input_file']);

/**
 * The parts of a message Codex cannot read, with the type a text part reads as: what the
 * model wrote (`output_text`) in an assistant message, what it was given (`input_text`) in
 * any other. Undefined when every part is readable.
 */
export function unreadableParts(role: string, content: unknown[]): Array<{ pointer: string; type: string; readAs?: string }> | undefined {
  const found: Array<{ pointer: string; type: string; readAs?: string }> = [];
  content.forEach((part, i) => {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) return;
    const { type, text } = part as Json;
    if (typeof type !== 'string' || PART_TYPES.has(type)) return;
    const readAs = type === 'text' && typeof text === 'string' ? (role === 'assistant' ? 'output_text' : 'input_text') : undefined;
    found.push(readAs === undefined ? { pointer: `/payload/content/${i}`, type } : { pointer: `/payload/content/${i}`, type, readAs });
  });
  return found.length === 0 ? undefined : found;
}
