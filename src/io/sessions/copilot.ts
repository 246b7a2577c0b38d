import { join } from 'node:path';
import type { Env, ResumeRequest, SessionAgent } from './agent.js';
import { hasFlag, optionValue, UUID } from './command-line.js';
import { expandTilde, homeOf, sessionsAt } from './walk.js';

/** `$COPILOT_HOME/session-state/<session id>/events.jsonl` (default ~/.copilot). */
function copilotHome(env: Env): string {
  return env.COPILOT_HOME ? expandTilde(env.COPILOT_HOME, env) : join(homeOf(env), '.copilot');
}

export const copilot: SessionAgent = {
  name: 'copilot-cli',
  commands: ['copilot'],
  format: 'copilot-cli',
  roots: (env) => [join(copilotHome(env), 'session-state')],
  sessions: (env) => sessionsAt('copilot-cli', join(copilotHome(env), 'session-state'), [/^[^.]/, /^events\.jsonl$/], (names) => names[0]),
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume']);
    // A whole id only: an empty or other value names no session before it starts.
    if (resume !== undefined) return resume !== null && UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue']) ? { kind: 'latest' } : undefined;
  },
};
