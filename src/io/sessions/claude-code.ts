import { basename, dirname, join } from 'node:path';
import type { Env, ResumeRequest, SessionAgent } from './agent.js';
import { hasFlag, optionValue } from './command-line.js';
import { folderFrom, homeOf } from './home.js';
import { dashed, sessionsAt } from './walk.js';

/** `projects/<project>/<session id>.jsonl`; sub-agents' files live a level further down and are not sessions one resumes. */
const LAYOUT = [/^[^.]/, /^[^.].*\.jsonl$/];

/** Project folder names are cut here and given a hash of the whole path (a file name has a length limit). */
const MAX_FOLDER = 200;

/** CLAUDE_CONFIG_DIR, not expanded (a `~` in it is a folder of that name where Claude Code starts), else ~/.claude. */
const home = (env: Env) => folderFrom(env, [{ name: 'CLAUDE_CONFIG_DIR', tilde: false }], join(homeOf(env), '.claude'));
const configDir = (env: Env) => home(env).path;

/** Java's String.hashCode, the hash Claude Code puts after a cut folder name. */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/** `/home/me/proj` → `-home-me-proj`; a name over 200 characters is cut and ends in the path's hash, base 36. */
export function claudeProjectFolder(cwd: string): string {
  const name = dashed(cwd);
  return name.length <= MAX_FOLDER ? name : `${name.slice(0, MAX_FOLDER)}-${Math.abs(stringHash(cwd)).toString(36)}`;
}

export const claudeCode: SessionAgent = {
  name: 'claude-code',
  commands: ['claude'],
  homeFolder: '.claude',
  format: 'claude-code',
  roots: (env) => [join(configDir(env), 'projects')],
  sessions: (env) => sessionsAt('claude-code', join(configDir(env), 'projects'), LAYOUT, (names) => names[1]!.slice(0, -'.jsonl'.length)),
  layouts: (env) => [{ root: join(configDir(env), 'projects'), levels: LAYOUT }],
  continuable: (file, cwd) => basename(dirname(file.path)) === claudeProjectFolder(cwd),
  home,
  resumeFrom(args): ResumeRequest | undefined {
    // -r takes an optional value: a session id, or words to search for in the picker.
    const resume = optionValue(args, ['--resume', '-r']);
    if (resume !== undefined) return resume !== null && /^[0-9a-f]{4}[0-9a-f-]*$/i.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue', '-c']) ? { kind: 'latest' } : undefined;
  },
};
