import type { Healing } from '../format.js';

/**
 * What Copilot CLI mends when it resumes a session, by rule id: only what the sessions it resumed
 * offline showed (reference/more-agents.md §1.3). Unlike the others it writes its mend to the file.
 */
export const copilotCliHeals: Readonly<Record<string, Healing>> = {
  'missing-tool-result': { client: 'Copilot CLI', since: '1.0.102', how: 'appends a failed tool.execution_complete (code "interrupted") for the unanswered call' },
};
