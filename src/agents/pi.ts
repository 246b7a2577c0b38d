import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env, ResumeRequest, SessionLayout } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { userFolder } from '../hooks/user-folder.js';
import { hasFlag, optionValue } from '../io/sessions/command-line.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { sessionsAt } from '../io/sessions/walk.js';

/** `<ts>_<session id>.jsonl`, as SessionManager names a new session. */
const SESSION_FILE = /^[^_]+_(.+)\.jsonl$/;

/** pi's agent folder (PI_CODING_AGENT_DIR, else ~/.pi/agent; config.js getAgentDir). */
const home = (env: Env) => folderFrom(env, [{ name: 'PI_CODING_AGENT_DIR', tilde: true }], join(homeOf(env), '.pi', 'agent'));
const agentDir = (env: Env) => home(env).path;

/** PI_CODING_AGENT_SESSION_DIR puts every session straight into one folder, whatever the project. */
function flatDir(env: Env): string | undefined {
  const folder = folderFrom(env, [{ name: 'PI_CODING_AGENT_SESSION_DIR', tilde: true }], '');
  return folder.from === undefined ? undefined : folder.path;
}

/** `/home/me/proj` → `--home-me-proj--` (session-manager.js getDefaultSessionDir). */
export function piProjectFolder(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

const idOf = (name: string) => SESSION_FILE.exec(name)?.[1];

/** `sessions/<project>/<ts>_<id>.jsonl`, and the flat folder when one is set. */
function layouts(env: Env): SessionLayout[] {
  const flat = flatDir(env);
  return [{ root: join(agentDir(env), 'sessions'), levels: [/^[^.]/, SESSION_FILE] }, ...(flat === undefined ? [] : [{ root: flat, levels: [SESSION_FILE] }])];
}

export const pi = {
  name: 'pi' as const,
  title: 'pi',
  commands: ['pi'],
  homeFolder: '.pi',
  format: 'pi',
  roots: (env) => [join(agentDir(env), 'sessions'), ...[flatDir(env) ?? []].flat()],
  sessions: (env) => layouts(env).flatMap((layout) => sessionsAt('pi', layout.root, layout.levels, (names) => idOf(names[names.length - 1]!))),
  layouts,
  continuable(file, cwd, env) {
    const folder = dirname(file.path);
    return folder === join(agentDir(env), 'sessions', piProjectFolder(cwd)) || folder === flatDir(env);
  },
  home,
  resumeFrom(args): ResumeRequest | undefined {
    // --session and --fork take a file, or an id (any unique part of it) when the value has no slash and no .jsonl (main.js resolveSessionPath).
    const named = optionValue(args, ['--session', '--fork']);
    if (typeof named === 'string') return /[/\\]/.test(named) || named.endsWith('.jsonl') ? { kind: 'path', path: named } : { kind: 'id', id: named };
    if (hasFlag(args, ['--resume', '-r'])) return { kind: 'picker' };
    if (hasFlag(args, ['--continue', '-c'])) return { kind: 'latest' };
    return undefined;
  },
  // pi loads extensions from `<agent dir>/extensions/` for the user, `.pi/extensions/` in a project.
  hooks: {
    kind: 'extension',
    path: (scope, cwd) => join(scope === 'user' ? userFolder(home(process.env), 'pi') : join(cwd, '.pi'), 'extensions', 'transcript-doctor.js'),
    get shipped() {
      return fileURLToPath(new URL('../../extensions/pi/transcript-doctor.js', import.meta.url));
    },
    loadedWhen: 'pi loads it at its next start, or on /reload',
  },
} satisfies Agent;
