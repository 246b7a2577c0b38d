import type { ProviderId } from '../../providers/provider-id.js';

/** Qwen Code's auth types (its `AuthType`), by the API each one's requests are written for. */
const BY_AUTH_TYPE: Record<string, ProviderId> = {
  openai: 'openai-chat',
  'qwen-oauth': 'openai-chat',
  gemini: 'gemini',
  'vertex-ai': 'vertex',
  anthropic: 'anthropic',
};

/**
 * The provider a Qwen Code turn talked to: the auth type its telemetry recorded when there is one,
 * else its model's family; an OpenAI-compatible endpoint (Qwen's default) for everything else.
 */
export function qwenProvider(authType: string | undefined, model: unknown): ProviderId {
  const byAuth = authType === undefined ? undefined : BY_AUTH_TYPE[authType];
  if (byAuth !== undefined) return byAuth;
  if (typeof model === 'string' && model.startsWith('gemini-')) return 'gemini';
  return 'openai-chat';
}
