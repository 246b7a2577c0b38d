import type { Healing } from '../format.js';

const CLIENT = 'Qwen Code';
/** The version read and run here (reference/more-agents.md §1.2): `repairOrphanedToolUseTurns` on resume. */
const SINCE = '0.24.4';

/** What Qwen Code mends in memory when it resumes a session, by rule id; the file stays as it was. */
export const qwenHeals: Readonly<Record<string, Healing>> = {
  'missing-tool-result': { client: CLIENT, since: SINCE, how: 'adds an error response ("Tool execution result was not recorded …") for the unanswered call' },
  'duplicate-tool-result': { client: CLIENT, since: SINCE, how: 'drops the repeated response' },
};
