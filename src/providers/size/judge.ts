import type { Analysis } from '../../model/analysis.js';
import type { RequestSize } from '../../model/size/request-size.js';
import { semanticsOf } from '../../model/transcript.js';
import { chooseProvider } from '../choose.js';
import { contracts } from '../index.js';
import type { ProviderId } from '../provider-id.js';
import { contextWindow, type ContextWindow } from './context-windows.js';
import { GATEWAY_NAMES, type Gateway } from './gateway.js';
import { sizeLimits, type SizeLimits } from './size-limits.js';

/** What a session's request is judged against for size: who serves it, the model's window, every other limit. */
export interface SizeJudge {
  provider: ProviderId | undefined;
  gateway: Gateway | undefined;
  model: string | undefined;
  window: ContextWindow | undefined;
  limits: SizeLimits;
}

/**
 * The provider as for every rule (`--provider`, the model's agent, the turns), the gateway the
 * format names, the model the replayed path names last. When the session's own recorded usage is
 * over the table's window, the provider took a request that large, so the window is at least that:
 * the model's larger variant (Claude's 1M) if it has one, else the recorded figure, marked guessed.
 */
export function judgeSize(analysis: Analysis, request: Pick<RequestSize, 'model' | 'tokens'>): SizeJudge {
  const provider = chooseProvider(analysis).id;
  const gateway = semanticsOf(analysis.transcript).gateway;
  const model = request.model;
  let window = contextWindow(model, provider, gateway);
  const recorded = request.tokens.anchor?.tokens;
  if (window !== undefined && recorded !== undefined && recorded > window.tokens) {
    window =
      window.larger !== undefined && window.larger >= recorded
        ? { tokens: window.larger, family: window.family, source: `${window.source}; the session's recorded usage (${recorded} tokens) shows the larger window` }
        : { tokens: recorded, family: window.family, source: `the session's recorded usage (${recorded} tokens), over the table's ${window.tokens}`, guessed: true };
  }
  return { provider, gateway, model, window, limits: sizeLimits(provider, gateway) };
}

/** How findings name who enforces a limit: the gateway when the request passes one, else the provider. */
export function judgeName(judge: Pick<SizeJudge, 'provider' | 'gateway'>): string | undefined {
  if (judge.gateway !== undefined) return GATEWAY_NAMES[judge.gateway];
  return judge.provider === undefined ? undefined : contracts[judge.provider].name;
}
