import { UserError } from '../../errors.js';
import { realpathSync, statSync } from '../named-fs.js';
import type { Env, ResumeRequest, SessionAgent, SessionFile } from './agent.js';
import { sessionAgents } from './index.js';

/** A session file with what tells the newest apart. */
export interface FoundSession extends SessionFile {
  mtimeMs: number;
}

/** Where to look: one agent or all, in this environment, for this working folder's project. */
export interface SessionScope {
  agent?: SessionAgent;
  env?: Env;
  cwd?: string;
}

/** Fewer hex digits than this name too many sessions to be meant as an id. */
export const MIN_PREFIX = 4;

/**
 * Whether a command-line argument that is no file is meant as a session: `latest`, or a session
 * id or its start (hex digits and dashes, as every agent's UUIDs are). Anything else keeps its
 * "no such file" error.
 */
export function looksLikeSessionRef(arg: string): boolean {
  return arg === 'latest' || (arg.length <= 64 && new RegExp(`^[0-9a-f]{${MIN_PREFIX}}[0-9a-f-]*$`, 'i').test(arg));
}

/**
 * What a session id (or its start) can be spelled as: letters, digits, dots, dashes and
 * underscores, starting with a letter or digit, as every agent names its files. Anything else
 * (an empty id, which every id starts with; a path; spaces) names no session.
 */
const ID_TEXT = /^[0-9a-z][0-9a-z._-]{0,127}$/i;

/** A prefix that several sessions start with: the message is one line, the candidates follow one per line. */
export class AmbiguousSessionError extends UserError {
  constructor(
    ref: string,
    readonly candidates: readonly FoundSession[],
    agentGiven: boolean,
  ) {
    super(`${ref} matches ${candidates.length} sessions; give more of the id${agentGiven ? '' : ' or name the agent (--agent)'}`, candidates.map(describeSession));
  }
}

/** `<path>  <agent>  <modified, UTC>` */
function describeSession(session: FoundSession): string {
  return `${session.path}  ${session.agent}  ${new Date(session.mtimeMs).toISOString()}`;
}

/**
 * The sessions `ref` names: `latest` is the newest session (by modification time) of the
 * agent, or of all agents, among those its own `--continue` would take here; an id or the start
 * of one names every session whose id it starts (an exact id wins over longer ids it starts).
 * Empty when none (and for an empty or malformed id); AmbiguousSessionError when an id names more than one file.
 */
export function resolveSessionRef(ref: string, scope: SessionScope = {}): FoundSession[] {
  if (ref === 'latest') {
    const newest = latestSession(scope);
    return newest === undefined ? [] : [newest];
  }
  if (!ID_TEXT.test(ref)) return [];
  const wanted = ref.toLowerCase();
  const agents = scope.agent === undefined ? sessionAgents : [scope.agent];
  const starting = agents.flatMap((agent) => agent.sessions(scope.env ?? process.env)).filter((session) => session.id.toLowerCase().startsWith(wanted));
  const exact = starting.filter((session) => session.id.toLowerCase() === wanted);
  const chosen = distinct(withTimes(exact.length > 0 ? exact : starting));
  if (chosen.length > 1) throw new AmbiguousSessionError(ref, newestFirst(chosen), scope.agent !== undefined);
  return chosen;
}

/** The session an agent's command line says it will read, when it can be known before it starts. */
export function sessionOfRequest(agent: SessionAgent, request: ResumeRequest, scope: SessionScope = {}): FoundSession | undefined {
  const env = scope.env ?? process.env;
  const cwd = request.kind === 'latest' && request.cwd !== undefined ? request.cwd : (scope.cwd ?? process.cwd());
  switch (request.kind) {
    case 'picker':
      return undefined;
    case 'path':
      return withTimes([{ agent: agent.name, path: request.path, id: '' }])[0];
    case 'id':
      return resolveSessionRef(request.id, { agent, env, cwd })[0];
    case 'latest':
      return latestSession({ agent, env, cwd }, request.allProjects);
    case 'index': {
      // The n-th of the project's sessions in the order they were started, which their names keep.
      const sessions = continuable(agent, env, cwd).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const chosen = sessions[request.index - 1];
      return chosen === undefined ? undefined : withTimes([chosen])[0];
    }
  }
}

/** Newest first, the first session the agent's own `--continue` would take: a header is read only as far as needed. */
function latestSession(scope: SessionScope, allProjects = false): FoundSession | undefined {
  const env = scope.env ?? process.env;
  const cwd = scope.cwd ?? process.cwd();
  const agents = scope.agent === undefined ? sessionAgents : [scope.agent];
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  return newestFirst(withTimes(agents.flatMap((agent) => agent.sessions(env)))).find((session) => allProjects || (byName.get(session.agent)!.continuable?.(session, cwd, env) ?? true));
}

function continuable(agent: SessionAgent, env: Env, cwd: string): SessionFile[] {
  return agent.sessions(env).filter((session) => agent.continuable?.(session, cwd, env) ?? true);
}

/** Each with its modification time; one that vanished since it was listed is left out. */
function withTimes(sessions: readonly SessionFile[]): FoundSession[] {
  return sessions.flatMap((session) => {
    const info = statSync(session.path, { throwIfNoEntry: false });
    return info?.isFile() ? [{ ...session, mtimeMs: info.mtimeMs }] : [];
  });
}

/**
 * One entry per real file: a folder reached two ways (a link, an agent folder inside another)
 * lists its sessions twice. The name reached without a link is kept, as folder search does.
 */
function distinct(sessions: readonly FoundSession[]): FoundSession[] {
  const real = sessions.map((session) => {
    try {
      return realpathSync(session.path);
    } catch {
      return session.path;
    }
  });
  const order = sessions.map((_, i) => i).sort((a, b) => Number(real[a] !== sessions[a]!.path) - Number(real[b] !== sessions[b]!.path) || a - b);
  const seen = new Set<string>();
  const kept = new Set<number>();
  for (const i of order) {
    if (seen.has(real[i]!)) continue;
    seen.add(real[i]!);
    kept.add(i);
  }
  return sessions.filter((_, i) => kept.has(i));
}

/** Newest first; equal times in path order, so a run is repeatable. */
function newestFirst(sessions: readonly FoundSession[]): FoundSession[] {
  return [...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
