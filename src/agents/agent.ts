import type { AgentHooks } from '../hooks/hook-settings.js';
import type { SessionAgent } from '../io/sessions/agent.js';

/**
 * Everything transcript-doctor knows about one agent, in one module (src/agents/<agent>.ts):
 * where its sessions live and the variables that move them, how its command line names the
 * session it resumes, how a session's id or folder is read (asked of its format, see
 * TranscriptFormat.sessionHead), and how transcript-doctor hooks into it. The session search,
 * `locate`, `guard` and `hooks` read the table of these (./index.ts) and know no agent by name.
 */
export interface Agent extends SessionAgent {
  /** What its users call it, in messages (`Claude Code`). */
  title: string;
  /** How `hooks install` puts transcript-doctor into it; absent when it cannot. */
  hooks?: AgentHooks;
}
