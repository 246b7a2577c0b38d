import type { At, ProviderContract } from './contract.js';

const idText = (at: At) => `Tool call id was ${at.id} but must be a-z, A-Z, 0-9, with a length of 9.`;

/** Mistral counts calls and responses as multisets: a repeated id unbalances them as surely as a missing result. */
const COUNT = 'Not the same number of function calls and responses';

/** A tool message that answers no call: right after a user message Mistral names the order, else the count. */
const strayResponse = (at: At) => (at.after === 'user' ? "Unexpected role 'tool' after role 'user'" : COUNT);

/** Mistral's chat API (reference/provider-rules.md §5a). */
export const mistral: ProviderContract = {
  id: 'mistral',
  name: 'Mistral',
  callId: { char: /[a-zA-Z0-9]/, min: 9, max: 9 },
  resultsApart: true,
  terms: {
    'missing-tool-result': { grade: 'C', text: () => COUNT },
    'orphan-tool-result': { grade: 'C', text: strayResponse },
    'duplicate-tool-result': { grade: 'C', text: strayResponse },
    'displaced-tool-result': { grade: 'C', text: strayResponse },
    'duplicate-tool-call-id': { grade: 'C', text: () => COUNT },
    'tool-call-id-format': { grade: 'C', text: idText },
    'tool-call-id-length': { grade: 'C', text: idText },
    'user-after-tool-result': { grade: 'C', text: () => "Unexpected role 'user' after role 'tool'" },
    'empty-error-turn': { grade: 'C', text: () => 'Assistant message must have either content or tool_calls, but not none.' },
  },
};
