import type { Healing } from '../format.js';

const CLIENT = 'Gemini CLI';
/** The version whose loader the interop test runs (reference/more-agents.md §1.1). */
const SINCE = '0.61.0';

/** What Gemini CLI mends in memory when it resumes a session, by rule id. It adds no response for an unanswered call. */
export const geminiCliHeals: Readonly<Record<string, Healing>> = {
  'empty-final-turn': { client: CLIENT, since: SINCE, how: 'leaves the empty model message out of the history it sends' },
  'unanswered-final-turn': { client: CLIENT, since: SINCE, how: 'adds a model turn "[The previous response was interrupted before it completed.]" before the new prompt' },
};
