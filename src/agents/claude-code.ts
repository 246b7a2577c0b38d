import { basename, dirname, join } from 'node:path';
import type { Env, ResumeRequest } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { groupedEntry, transcriptPathField } from './hook-input.js';
import { userFolder } from '../hooks/user-folder.js';
import { hasFlag, optionValue } from '../io/sessions/command-line.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { dashed, sessionsAt } from '../io/sessions/walk.js';

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

export const claudeCode = {
  name: 'claude-code' as const,
  title: 'Claude Code',
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
  // Claude Code 2.1.328: its settings refuse comments and trailing commas; the last duplicate key wins.
  hooks: {
    kind: 'settings',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder(home(process.env), 'Claude Code'), 'settings.json') : join(cwd, '.claude', 'settings.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => groupedEntry(event, { type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Claude Code', comments: false, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
} satisfies Agent;
