import { join } from 'node:path';
import type { Agent } from '../../../src/agents/agent.js';
import { groupedEntry, transcriptPathField } from '../../../src/agents/hook-input.js';
import { userFolder } from '../../../src/hooks/user-folder.js';
import type { Env, ResumeRequest } from '../../../src/io/sessions/agent.js';
import { hasFlag, optionValue, UUID } from '../../../src/io/sessions/command-line.js';
import { folderFrom, homeOf } from '../../../src/io/sessions/home.js';
import { dashed, firstLine, sessionsAt } from '../../../src/io/sessions/walk.js';
import { standInFormat } from './format/index.js';

/**
 * The agent module of a stand-in agent, `stand-in`: everything the program knows of it. Sessions
 * are `$STAND_IN_HOME/projects/<cwd, dashed>/<time>.jsonl` (default ~/.stand-in), its command
 * line resumes one with `--resume <id>` or `--continue`, and it reads hooks from a settings file
 * in Claude Code's shape.
 */
const home = (env: Env) => folderFrom(env, [{ name: 'STAND_IN_HOME', tilde: false }], join(homeOf(env), '.stand-in'));
const projects = (env: Env) => join(home(env).path, 'projects');
const LAYOUT = [/^[^.]/, /^\d+\.jsonl$/];

export const standIn: Agent = {
  name: 'stand-in',
  title: 'Stand-in',
  commands: ['stand-in'],
  homeFolder: '.stand-in',
  format: standInFormat.name,
  roots: (env) => [projects(env)],
  // The file is named by time: the id is the header's, as the format reads it.
  sessions: (env) =>
    sessionsAt('stand-in', projects(env), LAYOUT, (names) => {
      const head = firstLine(join(projects(env), ...names));
      return head === undefined ? undefined : standInFormat.sessionHead!(head).id;
    }),
  layouts: (env) => [{ root: projects(env), levels: LAYOUT }],
  continuable: (file, cwd, env) => file.path.startsWith(join(projects(env), dashed(cwd)) + '/'),
  home,
  resumeFrom(args): ResumeRequest | undefined {
    const resume = optionValue(args, ['--resume']);
    if (resume !== undefined) return resume !== null && UUID.test(resume) ? { kind: 'id', id: resume } : { kind: 'picker' };
    return hasFlag(args, ['--continue']) ? { kind: 'latest' } : undefined;
  },
  hooks: {
    kind: 'settings',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder(home(process.env), 'Stand-in'), 'settings.json') : join(cwd, '.stand-in', 'settings.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => groupedEntry(event, { type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Stand-in', comments: false, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
};
