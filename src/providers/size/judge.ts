import type { Analysis } from '../../model/analysis.js';
import type { RequestSize } from '../../model/size/request-size.js';
import { semanticsOf } from '../../model/transcript.js';
import { chooseProvider } from '../choose.js';
import { contracts } from '../index.js';
import type { ProviderId } from '../provider-id.js';
import { contextWindow, type ContextWindow } from './context-windows.js';
import { GATEWAY_NAMES, gatewayFor, type Gateway } from './gateway.js';
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
 * format names, the model the replayed path names last. The window the session records for that
 * model wins over the table's: its agent ran with that one (Qwen Code's `contextWindowSize` is its
 * setting, which a table of the model's largest window does not know; Codex's
 * `model_context_window` is its own table's or its setting). When the session's own recorded usage
 * is over the table's window, the provider took a request that large: the window is the model's
 * larger variant (Claude's 1M) when that holds it, else unknown (undefined), and nothing is said of
 * it.
 */
export function judgeSize(analysis: Analysis, request: Pick<RequestSize, 'model' | 'tokens' | 'window'>): SizeJudge {
  const provider = chooseProvider(analysis).id;
  const gateway = gatewayFor(semanticsOf(analysis.transcript).gateway, provider);
  const model = request.model;
  const table = contextWindow(model, provider, gateway);
  if (request.window !== undefined) return { provider, gateway, model, window: recordedWindow(request.window, table), limits: sizeLimits(provider, gateway) };
  let window = table;
  const recorded = request.tokens.anchor?.tokens;
  if (window !== undefined && recorded !== undefined && recorded > window.tokens) {
    // Over every window the table knows for it: this account's is larger, by how much is not known.
    window =
      window.larger !== undefined && window.larger >= recorded
        ? { tokens: window.larger, family: window.family, source: `${window.source}; the session's recorded usage (${recorded} tokens) shows the larger window` }
        : undefined;
  }
  return { provider, gateway, model, window, limits: sizeLimits(provider, gateway) };
}

function recordedWindow(tokens: number, table: ContextWindow | undefined): ContextWindow {
  const n = (value: number) => value.toLocaleString('en-US');
  const instead = table === undefined || table.tokens === tokens ? '' : `; the table's ${table.family === 'default' ? 'default' : table.family} window, ${n(table.tokens)} (${table.source}), does not apply`;
  return { tokens, family: 'recorded', source: `the session records a window of ${n(tokens)} tokens for its model${instead}` };
}

/** How findings name who enforces a limit: the gateway when the request passes one, else the provider. */
export function judgeName(judge: Pick<SizeJudge, 'provider' | 'gateway'>): string | undefined {
  if (judge.gateway !== undefined) return GATEWAY_NAMES[judge.gateway];
  return judge.provider === undefined ? undefined : contracts[judge.provider].name;
}
