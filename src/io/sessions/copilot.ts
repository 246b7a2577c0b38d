import { join } from 'node:path';
import type { Env, ResumeRequest, SessionAgent } from './agent.js';
import { hasFlag, optionValue, UUID } from './command-line.js';
import { folderFrom, homeOf } from './home.js';
import { sessionsAt } from './walk.js';

/**
 * `$COPILOT_HOME/session-state/<session id>/events.jsonl` (default ~/.copilot). Copilot 1.0.102's
 * resolveCopilotHome (its native runtime) takes the value as given: `~/x` stays `~/x`.
 */
const home = (env: Env) => folderFrom(env, [{ name: 'COPILOT_HOME', tilde: false }], join(homeOf(env), '.copilot'));
const copilotHome = (env: Env) => home(env).path;

const LAYOUT = [/^[^.]/, /^events\.jsonl$/];

export const copilot: SessionAgent = {
  name: 'copilot-cli',
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
};
