import type { Healing } from '../format.js';

const CLIENT = 'Claude Code';
/** The version tried offline (reference/more-agents.md §2.1): its request showed each of these mended. */
const SINCE = '2.1.328';

/**
 * What Claude Code mends in memory when it resumes a session, by rule id. Only what its request
 * was seen to do; its strict mode (`strictToolResultPairing`) refuses instead of adding results.
 */
export const claudeCodeHeals: Readonly<Record<string, Healing>> = {
  'missing-tool-result': { client: CLIENT, since: SINCE, how: 'adds an error result ("[Tool call interrupted: …]") for the unanswered call' },
  'empty-text-block': { client: CLIENT, since: SINCE, how: 'drops empty text blocks' },
  'blank-user-message': { client: CLIENT, since: SINCE, how: 'drops the blank prompt' },
  'tool-result-not-first': { client: CLIENT, since: SINCE, how: 'moves tool results ahead of the text beside them' },
  'unanswered-final-turn': { client: CLIENT, since: SINCE, how: 'adds an assistant turn "No response requested." before the new prompt' },
  'unknown-parent': { client: CLIENT, since: SINCE, how: 'bridges the missing parent to the line before' },
};
