import type { ProviderContract } from './contract.js';

/** OpenAI Chat Completions (reference/provider-rules.md §2): no charset rule for ids, only a length. */
export const openaiChat: ProviderContract = {
  id: 'openai-chat',
  name: 'OpenAI Chat',
  callId: { min: 1, max: 40 },
  terms: {
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
