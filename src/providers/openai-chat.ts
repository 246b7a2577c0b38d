import type { ProviderContract } from './contract.js';

const UNSUPPORTED_IMAGE =
  "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

/** OpenAI Chat Completions (reference/provider-rules.md §2): no charset rule for ids, only a length. */
export const openaiChat: ProviderContract = {
  id: 'openai-chat',
  name: 'OpenAI Chat',
  callId: { min: 1, max: 40 },
  images: { types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'], maxBytes: 20 * 1024 * 1024 },
  terms: {
    'image-media-type': { grade: 'C', text: () => UNSUPPORTED_IMAGE },
    'image-size': { grade: 'C', text: () => UNSUPPORTED_IMAGE },
    'tool-call-id-length': {
      grade: 'C',
      text: (at) =>
        `Invalid 'messages[${at.message}].tool_calls[${at.call}].id': string too long. Expected a string with maximum length 40, but got a string with length ${at.id.length} instead.`,
    },
    'invalid-tool-name': {
      grade: 'C',
      text: (at) =>
        `Invalid 'messages[${at.message}].tool_calls[${at.call}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
    },
  },
};
