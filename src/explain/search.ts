import type { Finding } from '../pipeline/finding.js';
import type { ProviderId } from '../providers/provider-id.js';

/** What `explain` found when it looked for the session behind an error: both ways of looking (by ids and recency, locate.ts; by size, locate-size.ts) answer with it. */

export interface Located {
  file: string;
  format: string | null;
  finding: Finding;
  score: number;
  /** For a size error: what was measured of the session. */
  measured?: MeasuredSession;
}

export interface Search {
  /** The finding that explains the error, best first; empty when none does. */
  matches: Located[];
  /** How the sessions were chosen, for the reader: by the ids, the newest scanned for the rule, the newest measured (size errors). */
  method: 'ids' | 'recent' | 'size';
  /** Files that hold one of the ids (with ids), or the newest sessions taken (without). */
  considered: number;
  scanned: number;
  /** Files byte-searched for the ids: fewer than all when a match was found early. */
  read: number;
}

/** What explain measured of the session behind a size error, for the reader and `--reporter json`. */
export interface MeasuredSession {
  /** Input tokens estimated for the replayed request, and the estimate plus its measured error. */
  tokens: number;
  high: number;
  /** The model the session talks to, and its window as the limits table has it. */
  model?: string;
  window?: number;
  /** Request body bytes, estimated. */
  bytes: number;
  mediaCount: number;
  /** What in the session matches the figures the error quotes. */
  evidence: string;
  /**
   * The token target slim needs when the provider's quoted limit is below the window the session
   * would be slimmed to by default (a route with a smaller window than the model's): slim's own
   * default share, of the limit quoted.
   */
  target?: number;
  /** The provider the session was measured against, which slim is told too. */
  provider?: ProviderId;
}
