import type { ProviderContract } from './contract.js';

/** OpenAI's Responses API, also Codex's backend (reference/provider-rules.md §3). */
export const openaiResponses: ProviderContract = {
  id: 'openai-responses',
  name: 'OpenAI Responses',
  callId: { min: 1, max: 64, callPart: true },
  terms: {
    'missing-tool-result': { grade: 'C', text: (at) => `No tool output found for function call ${at.id}.` },
    // Also an output written before its call: the API reads the input list in order.
    'orphan-tool-result': { grade: 'C', text: (at) => `No tool call found for function call output with call_id ${at.id}.` },
    // §6 counts calls and outputs as enforced; no wording for a second output has been quoted.
    'duplicate-tool-result': { grade: 'D' },
    // The only wording (`Duplicate 'call_id': …`) comes from an OpenAI-compatible server, not OpenAI.
    'duplicate-tool-call-id': { grade: 'L' },
    // No 'displaced-tool-result': outputs pair by call_id and may come anywhere after their call.
    'tool-call-id-length': {
      grade: 'C',
      text: (at) => `Invalid 'input[${at.message}].call_id': string too long. Expected a string with maximum length 64, but got a string with length ${at.id.length} instead.`,
    },
    // encrypted_content verifies only for the org and model that wrote it; wording from a gateway fixture.
    'foreign-signed-reasoning': { grade: 'L', text: () => 'The encrypted content for item … could not be verified.' },
    // Whether blank text is rejected is not known (§6 "?").
    'empty-text-block': { grade: 'U' },
  },
};
