import { basename, dirname, join } from 'node:path';
import type { Env, ResumeRequest } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { hasFlag, optionValue, UUID } from '../io/sessions/command-line.js';
import { folderFrom, homeOf, type FolderVariable } from '../io/sessions/home.js';
import { dashed, sessionsAt } from '../io/sessions/walk.js';

/** Qwen Code's runtime folder: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (Storage.getRuntimeBaseDir). */
const QWEN_HOME: FolderVariable = { name: 'QWEN_HOME', tilde: true };
const home = (env: Env) => folderFrom(env, [QWEN_HOME], join(homeOf(env), '.qwen'));
const runtimeDir = (env: Env) => folderFrom(env, [{ name: 'QWEN_RUNTIME_DIR', tilde: true }, QWEN_HOME], join(homeOf(env), '.qwen')).path;

/** `projects/<cwd, every non-alphanumeric a dash>/chats/<session id>.jsonl` */
const LAYOUT = [/^[^.]/, /^chats$/, /^[^.].*\.jsonl$/];

export const qwenCode = {
  name: 'qwen-code' as const,
  title: 'Qwen Code',
  commands: ['qwen'],
  homeFolder: '.qwen',
  format: 'qwen-code',
  roots: (env) => [join(runtimeDir(env), 'projects')],
  sessions: (env) => sessionsAt('qwen-code', join(runtimeDir(env), 'projects'), LAYOUT, (names) => names[2]!.slice(0, -'.jsonl'.length)),
  layouts: (env) => [{ root: join(runtimeDir(env), 'projects'), levels: LAYOUT }],
  continuable: (file, cwd) => basename(dirname(dirname(file.path))) === dashed(cwd),
  home,
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume', '-r']);
    // It opens only a session by its whole id; without one (or with an empty or other value) it starts none it can be known by.
    if (resume !== undefined) return resume !== null && UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue', '-c']) ? { kind: 'latest' } : undefined;
  },
} satisfies Agent;
