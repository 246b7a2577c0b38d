/** What `slim` did to one session, for the reporters (text and JSON). */

/** The strategies, least loss first. */
export const STRATEGIES = ['images-over-limit', 'old-images', 'old-results', 'thinking', 'compaction'] as const;

export type StrategyId = (typeof STRATEGIES)[number];

/** What one strategy took out. */
export interface StrategyResult {
  strategy: StrategyId;
  /** Parts it changed (images stubbed, results trimmed, thinking blocks dropped, compactions written). */
  parts: number;
  /** Lines it changed or dropped. */
  lines: number[];
  savedBytes: number;
  savedTokens: number;
}

/** The size of the replayed request at one moment. */
export interface SizeSnapshot {
  /** Estimated input tokens, and the estimate plus the estimator's measured error. */
  tokens: number;
  high: number;
  bytes: number;
  /** Images plus PDF pages. */
  media: number;
}

/** The limits a slimmed request must come under. */
export interface SlimTarget {
  tokens: number;
  /** The model's context window, and where its size comes from. */
  window: number;
  windowSource: string;
  model?: string;
  /** The body limit of the provider, as slim keeps under it. */
  bytes: number;
  media: number;
}

export interface SlimReport {
  target: SlimTarget;
  before: SizeSnapshot;
  after: SizeSnapshot;
  /** Whether the request after slimming comes under every limit of the target. */
  fits: boolean;
  /** Per strategy, in the order they ran; only those that changed something. */
  strategies: StrategyResult[];
  /** What keeps the request over the target, when it still is. */
  left?: string[];
}
