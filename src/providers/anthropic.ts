import type { At, ProviderContract, Term, TermId } from './contract.js';

/**
 * Anthropic's Messages API (reference/provider-rules.md §1). Vertex AI and Bedrock's InvokeModel
 * serve the same API with the same checks, so vertex.ts reuses these terms under its own name.
 */
export const ANTHROPIC_ID_PATTERN = '^[a-zA-Z0-9_-]+$';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** Its sizes (5 MB of base64, also inside tool results) are in src/providers/size/size-limits.ts. */
const anthropicImages = { types: IMAGE_TYPES };

/** A result that answers no call in the message before it: an orphan, a second result, one away from its call. */
const unexpectedResult = (at: At) =>
  `messages.${at.message}.content.${at.block}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${at.id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;

const anthropicTerms: Partial<Record<TermId, Term>> = {
  'missing-tool-result': {
    grade: 'C',
    text: (at) =>
      `messages.${at.message}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${at.ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  },
  'orphan-tool-result': { grade: 'C', text: unexpectedResult },
  'duplicate-tool-result': { grade: 'C', text: unexpectedResult },
  'displaced-tool-result': { grade: 'C', text: unexpectedResult },
  'duplicate-tool-call-id': { grade: 'C', text: (at) => `messages.${at.message}.content.${at.block}: \`tool_use\` ids must be unique` },
  'partial-tool-call': { grade: 'C', text: (at) => `messages.${at.message}.content.${at.block}.tool_use.input: Field required` },
  'tool-call-id-format': { grade: 'C', text: (at) => `messages.${at.message}.content.${at.block}.tool_use.id: String should match pattern '${ANTHROPIC_ID_PATTERN}'` },
  // pi-mono and LibreChat cut ids to 64; no rejection has been quoted.
  'tool-call-id-length': { grade: 'U' },
  'final-assistant-whitespace': { grade: 'C', text: () => 'messages: final assistant content cannot end with trailing whitespace' },
  'foreign-signed-reasoning': { grade: 'C', text: (at) => `messages.${at.message}.content.${at.block}: Invalid \`signature\` in \`thinking\` block` },
  'empty-text-block': {
    grade: 'C',
    text: (at) => (at.whitespace ? 'messages: text content blocks must contain non-whitespace text' : 'messages: text content blocks must be non-empty'),
  },
  'blank-user-message': { grade: 'C', text: (at) => `messages.${at.message}: all messages must have non-empty content except for the optional final assistant message` },
  // Anthropic's 1P API now accepts an empty assistant turn mid-conversation (llmgateway PR #3127): a warning.
  'empty-error-turn': { grade: 'U', text: (at) => `messages.${at.message}: all messages must have non-empty content except for the optional final assistant message` },
  'image-media-type': {
    grade: 'C',
    text: (at) =>
      IMAGE_TYPES.includes(at.mediaType)
        ? `messages.${at.message}.content.${at.block}.image.source.base64.data: Image does not match the provided media type ${at.mediaType}`
        : `messages.${at.message}.content.${at.block}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
  },
  'invalid-tool-name': { grade: 'C', text: (at) => `messages.${at.message}.content.${at.block}.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'` },
};

export const anthropic: ProviderContract = {
  id: 'anthropic',
  name: 'Anthropic',
  callId: { char: /[a-zA-Z0-9_-]/, min: 1, max: 64 },
  images: anthropicImages,
  terms: anthropicTerms,
};
