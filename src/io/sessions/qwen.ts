import { basename, dirname, join } from 'node:path';
import type { Env, ResumeRequest, SessionAgent } from './agent.js';
import { hasFlag, optionValue } from './command-line.js';
import { dashed, expandTilde, homeOf, sessionsAt } from './walk.js';

/** Qwen Code's runtime folder: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (Storage.getRuntimeBaseDir). */
function runtimeDir(env: Env): string {
  const set = env.QWEN_RUNTIME_DIR || env.QWEN_HOME;
  return set ? expandTilde(set, env) : join(homeOf(env), '.qwen');
}

/** `projects/<cwd, every non-alphanumeric a dash>/chats/<session id>.jsonl` */
const LAYOUT = [/^[^.]/, /^chats$/, /^[^.].*\.jsonl$/];

export const qwen: SessionAgent = {
  name: 'qwen-code',
  commands: ['qwen'],
  homeFolder: '.qwen',
  format: 'qwen-code',
  roots: (env) => [join(runtimeDir(env), 'projects')],
  sessions: (env) => sessionsAt('qwen-code', join(runtimeDir(env), 'projects'), LAYOUT, (names) => names[2]!.slice(0, -'.jsonl'.length)),
  layouts: (env) => [{ root: join(runtimeDir(env), 'projects'), levels: LAYOUT }],
  continuable: (file, cwd) => basename(dirname(dirname(file.path))) === dashed(cwd),
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume', '-r']);
    if (resume !== undefined) return resume === null ? { kind: 'picker' } : { kind: 'id', id: resume };
    return hasFlag(args, ['--continue', '-c']) ? { kind: 'latest' } : undefined;
  },
};
