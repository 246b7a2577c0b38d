import type { ProviderId } from '../../providers/provider-id.js';

/** pi's `api` values whose servers are the provider itself, whoever `provider` names. */
const BY_API: Record<string, ProviderId> = {
  'bedrock-converse-stream': 'bedrock',
  'google-generative-ai': 'gemini',
  'google-vertex': 'gemini',
  'google-gemini-cli': 'gemini',
  'mistral-conversations': 'mistral',
  'openai-codex-responses': 'openai-responses',
  'azure-openai-responses': 'openai-responses',
};

/**
 * The provider a pi assistant message talked to, from its `api` and `provider`. A wire API served
 * by someone else (OpenRouter, DeepSeek, MiniMax's Anthropic-shaped endpoint) has that server's
 * own rules, which we have no contract for: 'unknown'.
 */
export function piProvider(api: unknown, provider: unknown): ProviderId | 'unknown' {
  if (typeof api !== 'string') return 'unknown';
  const fixed = BY_API[api];
  if (fixed !== undefined) return fixed;
  if (api === 'anthropic-messages') return provider === 'anthropic' ? 'anthropic' : provider === 'google-vertex' ? 'vertex' : 'unknown';
  if (api === 'openai-responses') return provider === 'openai' || provider === 'openai-codex' ? 'openai-responses' : 'unknown';
  if (api === 'openai-completions') return provider === 'openai' ? 'openai-chat' : provider === 'mistral' ? 'mistral' : 'unknown';
  return 'unknown';
}
