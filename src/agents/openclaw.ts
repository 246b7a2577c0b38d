import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync, statSync } from '../io/named-fs.js';
import type { Env } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { sessionsAt } from '../io/sessions/walk.js';

/** `<state>/agents/<agent>/sessions/<session id>.jsonl`; the state folder moves with OPENCLAW_STATE_DIR. */
const home = (env: Env) =>
  folderFrom(
    env,
    [
      { name: 'OPENCLAW_STATE_DIR', tilde: true, trim: true },
      { name: 'CLAWDBOT_STATE_DIR', tilde: true, trim: true },
    ],
    join(homeOf(env), '.openclaw'),
  );
const stateDir = (env: Env) => home(env).path;

/** Each agent's sessions folder that exists, by agent name; the pattern itself when there is none yet (it says where we looked). */
function sessionFolders(env: Env): string[] {
  const agents = join(stateDir(env), 'agents');
  let names: string[];
  try {
    names = readdirSync(agents).map((entry) => entry.name).filter((name) => !name.startsWith('.')).sort();
  } catch {
    names = [];
  }
  const folders = names.map((name) => join(agents, name, 'sessions')).filter((folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false);
  return folders.length > 0 ? folders : [join(agents, '*', 'sessions')];
}

const SESSION_FILE = [/^[^.].*\.jsonl$/];

export const openclaw = {
  name: 'openclaw' as const,
  title: 'OpenClaw',
  commands: ['openclaw'],
  homeFolder: '.openclaw',
  format: 'pi',
  roots: sessionFolders,
  sessions: (env) => sessionFolders(env).flatMap((folder) => sessionsAt('openclaw', folder, SESSION_FILE, ([name]) => name!.slice(0, -'.jsonl'.length))),
  // Every agent's folder, made yet or not: `agents/<agent>/sessions/<session id>.jsonl`.
  layouts: (env) => [{ root: join(stateDir(env), 'agents'), levels: [/^[^.]/, /^sessions$/, ...SESSION_FILE] }],
  home,
  // The gateway picks the session of each conversation itself: its command line names none.
  resumeFrom: () => undefined,
  // The plugin in extensions/openclaw (session_end repairs, before_message_write blocks what providers reject, see hooks/write-gate.ts).
  hooks: {
    kind: 'plugin',
    get howToInstall() {
      const plugin = fileURLToPath(new URL('../../extensions/openclaw', import.meta.url));
      return `OpenClaw installs plugins itself: run \`openclaw plugins install --link ${plugin}\` and restart the gateway (docs/commands/hooks.md)`;
    },
  },
} satisfies Agent;
