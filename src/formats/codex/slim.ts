import { isObject, type Json } from '../json.js';
import { callTarget } from '../slim-edits.js';
import { resultText, type SlimPart, type SlimView } from '../slim-view.js';
import { CALL_ITEMS } from './items.js';

const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/**
 * Codex's rollout lines to slim: tool outputs (a string, or input_text and input_image items),
 * images pasted into prompts, calls for their stubs. A reasoning item is opaque (encrypted for the
 * server that made it): it is only ever dropped whole, as the line it is (pointer '').
 */
export const codexSlim: SlimView = {
  parts(value) {
    const item = isObject(value) && value.type === 'response_item' && isObject(value.payload) ? value.payload : undefined;
    if (item === undefined || typeof item.type !== 'string') return [];
    if (item.type === 'reasoning') return [{ kind: 'thinking', pointer: '', length: JSON.stringify(item).length }];
    const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
    if (CALL_ITEMS.has(item.type)) return [{ kind: 'call', callId, name: typeof item.name === 'string' ? item.name : item.type, target: callTarget(item.arguments ?? item.input ?? (isObject(item.action) ? item.action : undefined)) }];
    const parts: SlimPart[] = [];
    if (OUTPUTS.has(item.type)) {
      if (typeof item.output === 'string') parts.push(resultText('/payload/output', item.output, callId));
      else if (Array.isArray(item.output)) contentParts(item.output, '/payload/output', true, callId, parts);
    } else if (item.type === 'message' && item.role === 'user' && Array.isArray(item.content)) {
      contentParts(item.content, '/payload/content', false, undefined, parts);
    }
    return parts;
  },
  textBlock: (_replaced, text) => ({ type: 'input_text', text }),
};

function contentParts(content: unknown[], at: string, inToolResult: boolean, callId: string | undefined, parts: SlimPart[]): void {
  content.forEach((part, i) => {
    if (!isObject(part)) return;
    const pointer = `${at}/${i}`;
    if (inToolResult && part.type === 'input_text' && typeof part.text === 'string') parts.push(resultText(`${pointer}/text`, part.text, callId));
    else if (part.type === 'input_image') image(part, pointer, inToolResult, callId, parts);
  });
}

/** An image whose bytes are in a data URL. */
function image(part: Json, pointer: string, inToolResult: boolean, callId: string | undefined, parts: SlimPart[]): void {
  const url = part.image_url;
  if (typeof url !== 'string' || !url.startsWith('data:')) return;
  const comma = url.indexOf(',');
  const mediaType = url.slice(5, comma).replace(/;base64$/, '');
  parts.push({ kind: 'media', pointer, media: 'image', base64Length: url.length - comma - 1, mediaType, inToolResult, callId });
}
