import { anthropicImages, anthropicTerms } from './anthropic.js';
import type { ProviderContract } from './contract.js';

/** Claude on Vertex AI: the same checks and wording as Anthropic's own API in every observed case (§6). */
export const vertex: ProviderContract = {
  id: 'vertex',
  name: 'Anthropic (Vertex AI)',
  callId: { char: /[a-zA-Z0-9_-]/, min: 1, max: 64 },
  images: anthropicImages,
  terms: anthropicTerms,
};
