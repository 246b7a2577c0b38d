import type { RecountInput } from '../compaction.js';
import { isObject, type Json } from '../json.js';

/**
 * The `token_count` event Codex writes after it has counted its context again (after its own
 * compaction): on resume Codex takes the last `token_count` in the rollout as the size of its
 * context (codex-rs `last_token_info_from_rollout`), and before each turn compares
 * `last_token_usage.total_tokens` plus its bytes/4 guess at the items after the last model output
 * (ContextManager::get_total_token_usage) with its auto-compact limit (`model_auto_compact_token_limit`,
 * else 90% of the window); `total_token_usage` is the cumulative bill and decides nothing. So after
 * slim the last one must count what is left. The cumulative figure and the window are copied from
 * the last recorded event (no figure is rewritten); `last_token_usage` holds slim's high bound,
 * which is under its target and so, at the default 80%, under Codex's limit with room.
 */
export function codexRecount({ analysis, tokens, read }: RecountInput): Json | undefined {
  const { entries } = analysis;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries.usageOf(i) === undefined) continue;
    const value = read(i);
    if (!isObject(value) || !isObject(value.payload) || value.payload.type !== 'token_count' || !isObject(value.payload.info)) return undefined;
    const info: Json = value.payload.info;
    const last = read(entries.length - 1);
    const timestamp = isObject(last) && typeof last.timestamp === 'string' ? last.timestamp : value.timestamp;
    const estimate = Math.max(0, Math.round(tokens));
    const usage = { input_tokens: estimate, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: estimate };
    const recounted: Json = { total_token_usage: info.total_token_usage ?? usage, last_token_usage: usage };
    if (info.model_context_window !== undefined) recounted.model_context_window = info.model_context_window;
    return { timestamp, type: 'event_msg', payload: { type: 'token_count', info: recounted, rate_limits: value.payload.rate_limits ?? null } };
  }
  return undefined;
}
