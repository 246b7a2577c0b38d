import type { At, ProviderContract } from './contract.js';

const UNSUPPORTED_IMAGE =
  "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

/** "preceeding" is OpenAI's spelling (newer deployments write "preceding"). */
const ORPHAN_TOOL_MESSAGE = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";

/** A second tool message for a call: named as a duplicate among the call's responses, else one answering nothing before it. */
const duplicateResponse = (at: At) =>
  at.after === 'calls' ? `Invalid parameter: Duplicate value for 'tool_call_id' of '${at.id}', in messages[${at.earlier}] and messages[${at.message}].` : ORPHAN_TOOL_MESSAGE;

/** OpenAI Chat Completions (reference/provider-rules.md §2): no charset rule for ids, only a length. */
export const openaiChat: ProviderContract = {
  id: 'openai-chat',
  name: 'OpenAI Chat',
  callId: { min: 1, max: 40 },
  resultsApart: true,
  images: { types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] },
  terms: {
    'missing-tool-result': {
      grade: 'C',
      text: (at) =>
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${at.ids.join(', ')}`,
    },
    'orphan-tool-result': { grade: 'C', text: () => ORPHAN_TOOL_MESSAGE },
    'duplicate-tool-result': { grade: 'C', text: duplicateResponse },
    'displaced-tool-result': { grade: 'C', text: () => ORPHAN_TOOL_MESSAGE },
    // OpenAI-compatible servers reject repeated ids within tool_calls; OpenAI's own wording is not captured.
    'duplicate-tool-call-id': { grade: 'U' },
    'image-media-type': { grade: 'C', text: () => UNSUPPORTED_IMAGE },
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
