/**
 * A service an agent's requests pass through on their way to the model, with size limits of its
 * own on top of the provider's: Copilot CLI talks to GitHub's CAPI (a 5 MB request, its own
 * windows), Qwen Code's default endpoint is Alibaba's DashScope (a 20,000,000-character string).
 * A format names it in its ReplaySemantics; the size rules and `slim` judge against both.
 */
export type Gateway = 'copilot' | 'dashscope';

export const GATEWAY_NAMES: Record<Gateway, string> = { copilot: 'GitHub Copilot (CAPI)', dashscope: 'DashScope' };
