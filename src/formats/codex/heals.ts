import type { Healing } from '../format.js';

const CLIENT = 'Codex';
/** The version tried offline (reference/more-agents.md §2.2): its request showed each of these mended. */
const SINCE = '0.169.0';

/** What Codex mends in memory when it resumes a rollout, by rule id (its history normalisation). */
export const codexHeals: Readonly<Record<string, Healing>> = {
  'missing-tool-result': { client: CLIENT, since: SINCE, how: 'inserts an "aborted" output right after the unanswered call' },
  'orphan-tool-result': { client: CLIENT, since: SINCE, how: 'drops the output whose call is gone ("Orphan function call output")' },
};
