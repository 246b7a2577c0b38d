import type { At, ProviderContract } from './contract.js';

const EMPTY_TEXT =
  'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini';

const RESPONSE_COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

/** A response that answers no call: one too many in the turn after a call turn, else a response turn in the wrong place. */
const strayResponse = (at: At) => (at.after === 'calls' ? RESPONSE_COUNT : 'Please ensure that function response turn comes immediately after a function call turn.');

/**
 * Google Gemini, AI Studio and Vertex (reference/provider-rules.md §4). Call ids are optional: no
 * id rule, and no 'duplicate-tool-call-id' (responses pair by name and place).
 */
export const gemini: ProviderContract = {
  id: 'gemini',
  name: 'Gemini',
  terms: {
    'missing-tool-result': { grade: 'C', text: () => RESPONSE_COUNT },
    'orphan-tool-result': { grade: 'C', text: strayResponse },
    'duplicate-tool-result': { grade: 'C', text: strayResponse },
    'displaced-tool-result': { grade: 'C', text: strayResponse },
    'missing-tool-result-name': {
      grade: 'C',
      text: (at) => `* GenerateContentRequest.contents[${at.message}].parts[${at.block}].function_response.name: Name cannot be empty.`,
    },
    // A mismatched name gets a bare 400 without a message (archestra PR #7583 bisected it).
    'tool-result-name-mismatch': { grade: 'C', text: () => 'INVALID_ARGUMENT' },
    'call-turn-order': { grade: 'C', text: () => 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.' },
    'foreign-signed-reasoning': { grade: 'C', text: () => 'Corrupted thought signature.' },
    'empty-text-block': { grade: 'C', text: () => EMPTY_TEXT },
    'blank-user-message': { grade: 'C', text: () => EMPTY_TEXT },
    'empty-error-turn': { grade: 'C', text: (at) => `* GenerateContentRequest.contents[${at.message}].parts: contents.parts must not be empty.` },
    // Confirmed for declarations only; replayed calls are unconfirmed.
    'invalid-tool-name': {
      grade: 'U',
      text: () =>
        'Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.',
    },
  },
};
