import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { LIMITS, readBoundedText } from '../io/bounded-read.js';
import type { Env, ResumeRequest } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { groupedEntry, transcriptPathField } from './hook-input.js';
import { userFolder } from '../hooks/user-folder.js';
import { optionValue, UUID } from '../io/sessions/command-line.js';
import { geminiCliFormat } from '../formats/gemini-cli/index.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { headOf, sessionsAt } from '../io/sessions/walk.js';

/** `session-<YYYY-MM-DDTHH-mm>-<first 8 of the id>.jsonl`, or a legacy whole-file `.json`. */
const SESSION_FILE = /^session-.*-([0-9a-f]{8})\.jsonl?$/i;
/** `tmp/<project>/chats/<session file>` */
const LAYOUT = [/^[^.]/, /^chats$/, SESSION_FILE];

/** ~/.gemini, under GEMINI_CLI_HOME when set (paths.ts homedir: the value as given, no `~` expansion). */
function home(env: Env) {
  const folder = folderFrom(env, [{ name: 'GEMINI_CLI_HOME', tilde: false }], homeOf(env));
  return { ...folder, path: join(folder.path, '.gemini') };
}
const geminiDir = (env: Env) => home(env).path;

/** The project a folder's sessions are filed under: its short name in projects.json, or (older builds) the sha256 of its path. */
function projectNames(cwd: string, env: Env): string[] {
  const names = [createHash('sha256').update(cwd).digest('hex')];
  const slug = registry(join(geminiDir(env), 'projects.json'))[resolve(cwd)];
  if (typeof slug === 'string') names.push(slug);
  return names;
}

/** projects.json: `{"projects": {"<folder>": "<short name>"}}`; anything else (missing, damaged) names nothing. */
function registry(path: string): Record<string, unknown> {
  try {
    const value = JSON.parse(readBoundedText(path, LIMITS.config)) as { projects?: unknown };
    return typeof value.projects === 'object' && value.projects !== null ? (value.projects as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const geminiCli = {
  name: 'gemini-cli' as const,
  title: 'Gemini CLI',
  commands: ['gemini'],
  homeFolder: '.gemini',
  format: 'gemini-cli',
  roots: (env) => [join(geminiDir(env), 'tmp')],
  // The file name holds only the id's first 8 characters; the whole id is in the first record
  // (a legacy .json is one pretty-printed object: its id is near the top too), as the format reads it.
  sessions: (env) =>
    sessionsAt('gemini-cli', join(geminiDir(env), 'tmp'), LAYOUT, (names) => {
      const path = join(geminiDir(env), 'tmp', ...names);
      const head = headOf(path, 4096);
      return (head === undefined ? undefined : geminiCliFormat.sessionHead!(head).id) ?? SESSION_FILE.exec(names[2]!)?.[1];
    }),
  layouts: (env) => [{ root: join(geminiDir(env), 'tmp'), levels: LAYOUT }],
  continuable: (file, cwd, env) => projectNames(cwd, env).includes(basename(dirname(dirname(file.path)))),
  home,
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume', '-r']);
    if (resume === undefined) return undefined;
    if (resume === null || resume === 'latest') return { kind: 'latest' };
    if (/^\d+$/.test(resume)) return Number(resume) > 0 ? { kind: 'index', index: Number(resume) } : { kind: 'picker' };
    // A whole id only: an empty or other value names no session before it starts.
    return UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
  },
  // Gemini CLI 0.61.0 (settings schema `HookDefinitionArray`): JSON.parse after strip-json-comments, so comments but no trailing commas.
  hooks: {
    kind: 'settings',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder(home(process.env), 'Gemini CLI'), 'settings.json') : join(cwd, '.gemini', 'settings.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => groupedEntry(event, { name: `transcript-doctor-${event}`, type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Gemini CLI', comments: true, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
} satisfies Agent;
