import type { ProviderId } from '../provider-id.js';

/**
 * A service an agent's requests pass through on their way to the model, with size limits of its
 * own on top of the provider's: Copilot CLI talks to GitHub's CAPI (a 5 MB request, its own
 * windows), Qwen Code's default endpoint is Alibaba's DashScope (a 20,000,000-character string).
 * A format names it in its ReplaySemantics; the size rules and `slim` judge against both.
 */
export type Gateway = 'copilot' | 'dashscope';

export const GATEWAY_NAMES: Record<Gateway, string> = { copilot: 'GitHub Copilot (CAPI)', dashscope: 'DashScope' };

/**
 * Whether a format's gateway stands in front of the provider a session was judged against.
 * Copilot's CAPI fronts every model it serves. DashScope is the server itself, and only for the
 * OpenAI-compatible route: a Qwen Code session on Gemini or Anthropic auth never meets it.
 */
export function gatewayFor(gateway: Gateway | undefined, provider: ProviderId | undefined): Gateway | undefined {
  if (gateway === 'dashscope') return provider === undefined || provider === 'openai-chat' ? gateway : undefined;
  return gateway;
}

/** A gateway that is the server itself: its limits replace the provider API's, rather than adding to them. */
export const SERVES_ITSELF: ReadonlySet<Gateway> = new Set(['dashscope']);
