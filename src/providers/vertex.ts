import { anthropic } from './anthropic.js';
import type { ProviderContract } from './contract.js';

/** Claude on Vertex AI: the same checks and wording as Anthropic's own API in every observed case (§6). */
export const vertex: ProviderContract = { ...anthropic, id: 'vertex', name: 'Anthropic (Vertex AI)' };
