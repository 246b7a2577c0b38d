import { isObject, type Json } from '../json.js';
import { callTarget } from '../slim-edits.js';
import { resultText, type SlimPart, type SlimView } from '../slim-view.js';

/**
 * Claude Code's lines to slim: the Anthropic blocks of `message.content`, tool results' text and
 * images (nested in them too), documents, thinking. `toolUseResult`, the copy of a result Claude
 * Code keeps for its own screen, is never sent, so slim leaves it as it is.
 */
export const claudeCodeSlim: SlimView = {
  parts(value) {
    const message = isObject(value) && isObject(value.message) ? value.message : undefined;
    const content = message?.content;
    if (!Array.isArray(content)) return [];
    const parts: SlimPart[] = [];
    content.forEach((block, i) => {
      if (!isObject(block)) return;
      const pointer = `/message/content/${i}`;
      if (block.type === 'tool_result') resultParts(block, pointer, parts);
      else if (block.type === 'thinking' || block.type === 'redacted_thinking') parts.push({ kind: 'thinking', pointer, length: JSON.stringify(block).length });
      else if (block.type === 'tool_use') parts.push({ kind: 'call', callId: typeof block.id === 'string' ? block.id : undefined, name: typeof block.name === 'string' ? block.name : undefined, target: callTarget(block.input) });
      else mediaPart(block, pointer, false, undefined, parts);
    });
    return parts;
  },
  textBlock: (_replaced, text) => ({ type: 'text', text }),
  unread: ['toolUseResult'],
};

function resultParts(block: Json, pointer: string, parts: SlimPart[]): void {
  const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
  const content = block.content;
  if (typeof content === 'string') {
    parts.push(resultText(`${pointer}/content`, content, callId));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((inner, j) => {
    if (!isObject(inner)) return;
    const at = `${pointer}/content/${j}`;
    if (inner.type === 'text' && typeof inner.text === 'string') parts.push(resultText(`${at}/text`, inner.text, callId));
    else mediaPart(inner, at, true, callId, parts);
  });
}

/** An image or document block with its bytes inline (`source.type: "base64"`). */
function mediaPart(block: Json, pointer: string, inToolResult: boolean, callId: string | undefined, parts: SlimPart[]): void {
  if (block.type !== 'image' && block.type !== 'document') return;
  const source = isObject(block.source) ? block.source : undefined;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return;
  const mediaType = typeof source.media_type === 'string' ? source.media_type : undefined;
  parts.push({ kind: 'media', pointer, media: block.type, base64Length: source.data.length, mediaType, inToolResult, callId });
}
