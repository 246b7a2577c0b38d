import { isObject } from '../json.js';
import { callTarget } from '../slim-edits.js';
import { resultText, type SlimPart, type SlimView } from '../slim-view.js';

/**
 * Qwen Code's lines to slim: the output of each `functionResponse` in a tool_result record, inline
 * images (in results and in prompts), and calls for their stubs. Thought parts are never offered:
 * its endpoints bind no signature to a prefix, and nothing is gained by dropping reasoning it sent.
 */
export const qwenSlim: SlimView = {
  parts(value) {
    const message = isObject(value) && isObject(value.message) && Array.isArray(value.message.parts) ? value.message : undefined;
    if (message === undefined || !isObject(value)) return [];
    const parts: SlimPart[] = [];
    const isResult = value.type === 'tool_result';
    (message.parts as unknown[]).forEach((part, i) => {
      if (!isObject(part)) return;
      const pointer = `/message/parts/${i}`;
      const response = isObject(part.functionResponse) ? part.functionResponse : undefined;
      const callId = typeof response?.id === 'string' ? response.id : undefined;
      if (isResult && response !== undefined && isObject(response.response)) {
        for (const key of ['output', 'error'] as const) {
          const text = response.response[key];
          if (typeof text === 'string') parts.push(resultText(`${pointer}/functionResponse/response/${key}`, text, callId));
        }
      } else if (isObject(part.inlineData) && typeof part.inlineData.data === 'string') {
        const mediaType = typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : undefined;
        parts.push({ kind: 'media', pointer, media: mediaType === 'application/pdf' ? 'document' : 'image', base64Length: part.inlineData.data.length, mediaType, inToolResult: isResult, callId });
      } else if (value.type === 'assistant' && isObject(part.functionCall)) {
        const call = part.functionCall;
        parts.push({ kind: 'call', callId: typeof call.id === 'string' ? call.id : undefined, name: typeof call.name === 'string' ? call.name : undefined, target: callTarget(call.args) });
      }
    });
    return parts;
  },
  textBlock: (_replaced, text) => ({ text }),
};
