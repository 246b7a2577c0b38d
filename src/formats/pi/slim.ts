import { isObject, type Json } from '../json.js';
import { callTarget } from '../slim-edits.js';
import { resultText, type SlimPart, type SlimView } from '../slim-view.js';
import { CALL_ID_FIELDS, CALL_TYPES, RESULT_ID_FIELDS } from './canonical.js';

/** pi's and OpenClaw's lines to slim: tool result messages' text and images, images in user turns, thinking and calls of assistant turns. */
export const piSlim: SlimView = {
  parts(value) {
    const message = isObject(value) && value.type === 'message' && isObject(value.message) ? value.message : undefined;
    if (message === undefined) return [];
    const parts: SlimPart[] = [];
    const isResult = message.role === 'toolResult';
    const callId = isResult ? firstString(message, RESULT_ID_FIELDS) : undefined;
    const content = message.content;
    if (isResult && typeof content === 'string') parts.push(resultText('/message/content', content, callId));
    if (!Array.isArray(content)) return parts;
    content.forEach((block, i) => {
      if (!isObject(block)) return;
      const pointer = `/message/content/${i}`;
      if (block.type === 'image' && typeof block.data === 'string') {
        parts.push({ kind: 'media', pointer, media: 'image', base64Length: block.data.length, mediaType: typeof block.mimeType === 'string' ? block.mimeType : undefined, inToolResult: isResult, callId });
      } else if (isResult && block.type === 'text' && typeof block.text === 'string') {
        parts.push(resultText(`${pointer}/text`, block.text, callId));
      } else if (message.role === 'assistant' && (block.type === 'thinking' || block.type === 'redacted_thinking')) {
        parts.push({ kind: 'thinking', pointer, length: JSON.stringify(block).length });
      } else if (message.role === 'assistant' && typeof block.type === 'string' && CALL_TYPES.has(block.type)) {
        parts.push({ kind: 'call', callId: firstString(block, CALL_ID_FIELDS), name: typeof block.name === 'string' ? block.name : undefined, target: callTarget(block.arguments ?? block.input) });
      }
    });
    return parts;
  },
  textBlock: (_replaced, text) => ({ type: 'text', text }),
};

function firstString(value: Json, fields: readonly string[]): string | undefined {
  for (const field of fields) if (typeof value[field] === 'string') return value[field];
  return undefined;
}
