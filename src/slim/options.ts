import type { ProviderId } from '../providers/provider-id.js';

/** How small `slim` makes a session, and what it never touches. */
export interface SlimOptions {
  /**
   * The size the replayed request must come under: tokens, or a share of the model's context
   * window (0.6 for 60%). Default: DEFAULT_TARGET_SHARE of the window.
   */
  target?: { tokens: number } | { share: number };
  /** The latest this many user turns are never slimmed, beyond images over a limit (default DEFAULT_KEEP_TURNS). */
  keepTurns?: number;
  /** The provider the request goes to (`--provider`), for its limits; else the one the file shows. */
  provider?: ProviderId;
  /**
   * A summary written elsewhere (by the model of `slim --summarize`) for a compaction that keeps
   * history from replay position `keepFrom`: used in place of the local summary when the planner
   * compacts from there. The planner stays synchronous; its caller asks the model between plans.
   */
  summary?: GivenSummary;
}

export interface GivenSummary {
  keepFrom: number;
  text: string;
}

/**
 * The default target, as a share of the window: under Claude Code's auto-compaction threshold
 * (the window less its output reserve and a 13k buffer, about 83% of 200k) and pi's (the window
 * less 16,384 reserved tokens), so the agent resumes without compacting first and has room to work.
 */
export const DEFAULT_TARGET_SHARE = 0.6;

export const DEFAULT_KEEP_TURNS = 2;

/** Parses `--target`: a whole number of tokens, or a percentage of the window (`60%`). */
export function parseTarget(text: string): SlimOptions['target'] {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text.trim());
  if (percent !== null) {
    const share = Number(percent[1]) / 100;
    return share > 0 && share <= 1 ? { share } : undefined;
  }
  if (!/^[1-9]\d*$/.test(text.trim())) return undefined;
  return { tokens: Number(text.trim()) };
}
