import { UserError } from '../errors.js';
import { agentNamed, type AgentName } from '../io/sessions/index.js';
import { looksLikeSessionRef, MIN_PREFIX, resolveSessionRef } from '../io/sessions/resolve.js';

export interface LocateOptions {
  /** Look only at this agent's sessions (one this package ships, or one added with registerAgent). */
  agent?: AgentName | (string & {});
  /** The folder whose project `latest` means (default: the working directory). */
  cwd?: string;
  /** Where HOME and the agents' folder variables are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface LocatedSession {
  path: string;
  /** The agent's name (an AgentName, unless one was registered). */
  agent: string;
  id: string;
  modified: Date;
}

/**
 * The sessions a session id, the start of one, or `latest` names, as `transcript-doctor locate`
 * finds them (empty when none). An id start that several sessions share throws a UserError whose
 * `details` list them.
 */
export function locateSessions(ref: string, options: LocateOptions = {}): LocatedSession[] {
  if (!looksLikeSessionRef(ref)) throw new UserError(`${ref} is not a session id, the start of one (${MIN_PREFIX} or more hex digits) or latest`);
  const agent = options.agent === undefined ? undefined : agentNamed(options.agent);
  if (options.agent !== undefined && agent === undefined) throw new UserError(`unknown agent "${options.agent}"`);
  return resolveSessionRef(ref, { agent, cwd: options.cwd, env: options.env }).map((session) => ({ path: session.path, agent: session.agent, id: session.id, modified: new Date(session.mtimeMs) }));
}
