import type { At, ProviderContract } from './contract.js';

/** Claude's messages through Bedrock Converse come back prefixed like this (brc-anthropic-passthrough). */
const PASSED = 'The model returned the following errors: ';

/** A result beyond the calls of the turn before it: an orphan, a second result, one away from its call. */
const extraResult = (at: At) => `The number of toolResult blocks at messages.${at.message}.content exceeds the number of toolUse blocks of previous turn.`;

/**
 * AWS Bedrock Converse / ConverseStream (reference/provider-rules.md §5b). Whether it rejects two
 * calls with one id is not known: no 'duplicate-tool-call-id'.
 */
export const bedrock: ProviderContract = {
  id: 'bedrock',
  name: 'Bedrock Converse',
  // ToolUseBlock reference: toolUseId is 1–64 of [a-zA-Z0-9_-]; no rejection wording captured.
  callId: { char: /[a-zA-Z0-9_-]/, min: 1, max: 64 },
  terms: {
    // The results belong in the message after the calls.
    'missing-tool-result': { grade: 'C', text: (at) => `Expected toolResult blocks at messages.${at.message + 1}.content for the following Ids: ${at.ids.join(', ')}` },
    'orphan-tool-result': { grade: 'C', text: extraResult },
    'duplicate-tool-result': { grade: 'C', text: extraResult },
    'displaced-tool-result': { grade: 'C', text: extraResult },
    'tool-call-id-format': { grade: 'D' },
    'tool-call-id-length': { grade: 'D' },
    'final-assistant-whitespace': { grade: 'C', text: () => `${PASSED}messages: final assistant content cannot end with trailing whitespace` },
    'foreign-signed-reasoning': { grade: 'C', text: (at) => `${PASSED}messages.${at.message}.content.${at.block}: Invalid \`signature\` in \`thinking\` block` },
    'empty-text-block': {
      grade: 'C',
      text: (at) => `The text field in the ContentBlock object at messages.${at.message}.content.${at.block} is blank. Add text to the text field, and try again.`,
    },
    'blank-user-message': {
      grade: 'C',
      text: (at) => `The text field in the ContentBlock object at messages.${at.message}.content.${at.block} is blank. Add text to the text field, and try again.`,
    },
    'empty-error-turn': {
      grade: 'C',
      text: (at) => `The content field in the Message object at messages.${at.message} is empty. Add a ContentBlock object to the content field and try again.`,
    },
    'invalid-tool-name': { grade: 'D' },
    // brc-first-user: any assistant message first, not only a turn of calls; a Converse check, so not passed through.
    'first-message-user': { grade: 'C', text: () => 'A conversation must start with a user message. Try again with a conversation that starts with a user message.' },
  },
};
