import { basename, dirname, join } from 'node:path';
import type { Env, ResumeRequest, SessionAgent } from './agent.js';
import { hasFlag, optionValue, UUID } from './command-line.js';
import { dashed, expandTilde, homeOf, sessionsAt } from './walk.js';

/** Qwen Code's runtime folder: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (Storage.getRuntimeBaseDir). */
function runtimeDir(env: Env): string {
  const set = env.QWEN_RUNTIME_DIR || env.QWEN_HOME;
  return set ? expandTilde(set, env) : join(homeOf(env), '.qwen');
}

export const qwen: SessionAgent = {
  name: 'qwen-code',
  commands: ['qwen'],
  format: 'qwen-code',
  roots: (env) => [join(runtimeDir(env), 'projects')],
  // `projects/<cwd, every non-alphanumeric a dash>/chats/<session id>.jsonl`
  sessions: (env) => sessionsAt('qwen-code', join(runtimeDir(env), 'projects'), [/^[^.]/, /^chats$/, /^[^.].*\.jsonl$/], (names) => names[2]!.slice(0, -'.jsonl'.length)),
  continuable: (file, cwd) => basename(dirname(dirname(file.path))) === dashed(cwd),
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume', '-r']);
    // It opens only a session by its whole id; without one (or with an empty or other value) it starts none it can be known by.
    if (resume !== undefined) return resume !== null && UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue', '-c']) ? { kind: 'latest' } : undefined;
  },
};
