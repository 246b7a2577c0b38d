import { join } from 'node:path';
import { clipped } from '../errors.js';
import type { Env, ResumeRequest } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { userFolder } from '../hooks/user-folder.js';
import { hasFlag, optionValue, UUID } from '../io/sessions/command-line.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { sessionsAt } from '../io/sessions/walk.js';

/**
 * `$COPILOT_HOME/session-state/<session id>/events.jsonl` (default ~/.copilot). Copilot 1.0.102's
 * resolveCopilotHome (its native runtime) takes the value as given: `~/x` stays `~/x`.
 */
const home = (env: Env) => folderFrom(env, [{ name: 'COPILOT_HOME', tilde: false }], join(homeOf(env), '.copilot'));
const copilotHome = (env: Env) => home(env).path;

const LAYOUT = [/^[^.]/, /^events\.jsonl$/];

export const copilotCli = {
  name: 'copilot-cli' as const,
  title: 'Copilot CLI',
  commands: ['copilot'],
  homeFolder: '.copilot',
  format: 'copilot-cli',
  roots: (env) => [join(copilotHome(env), 'session-state')],
  sessions: (env) => sessionsAt('copilot-cli', join(copilotHome(env), 'session-state'), LAYOUT, (names) => names[0]),
  layouts: (env) => [{ root: join(copilotHome(env), 'session-state'), levels: LAYOUT }],
  home,
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume']);
    // A whole id only: an empty or other value names no session before it starts.
    if (resume !== undefined) return resume !== null && UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue']) ? { kind: 'latest' } : undefined;
  },
  // Copilot CLI 1.0.102 (hooks reference): it reads every *.json in its hooks folders, so ours is a
  // file of its own; its native loader reads them as JSON.parse (tried: the last duplicate key wins).
  hooks: {
    kind: 'settings',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder(home(process.env), 'Copilot CLI'), 'hooks', 'transcript-doctor.json') : join(cwd, '.github', 'hooks', 'transcript-doctor.json')),
    events: { 'session-start': 'sessionStart', 'session-end': 'sessionEnd' },
    entry: (_event, command) => ({ type: 'command', bash: command }),
    grouped: false,
    commandKey: 'bash',
    syntax: { reader: 'Copilot CLI', comments: false, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: { version: 1 },
    transcriptPath: (input) => {
      const given = input.transcriptPath ?? input.transcript_path;
      if (typeof given === 'string' && given !== '') return given;
      // Some releases send only the session's id.
      const id = input.sessionId ?? input.session_id;
      if (id === undefined || id === null || id === '') return undefined;
      // An id is one folder name, as Copilot makes them (a UUID): a separator, `..` or a leading dot names nothing.
      if (typeof id !== 'string' || !/^[\w-][\w.-]*$/.test(id) || id.includes('..')) throw new Error(`session id ${clipped(JSON.stringify(String(id)))} is not one Copilot CLI makes; nothing done`);
      return join(copilotHome(process.env), 'session-state', id, 'events.jsonl');
    },
    // Copilot ignores a sessionStart hook's output.
    warning: 'stderr',
  },
} satisfies Agent;
