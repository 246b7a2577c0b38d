import { join, resolve, sep } from 'node:path';
import type { Env, ResumeRequest, SessionLayout } from '../io/sessions/agent.js';
import type { Agent } from './agent.js';
import { groupedEntry, transcriptPathField } from './hook-input.js';
import { userFolder } from '../hooks/user-folder.js';
import { hasFlag, operands, optionValue, UUID } from '../io/sessions/command-line.js';
import { codexFormat } from '../formats/codex/index.js';
import { folderFrom, homeOf } from '../io/sessions/home.js';
import { firstLine, sessionsAt } from '../io/sessions/walk.js';

/** `rollout-<YYYY-MM-DDTHH-mm-ss>-<session id>.jsonl` */
const ROLLOUT = /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const DATED = [/^\d{4}$/, /^\d{2}$/, /^\d{2}$/, ROLLOUT];

/** Options of codex and `codex [exec] resume` that take a value: their values are not the session id. */
const TAKING_VALUE = ['-c', '--config', '-m', '--model', '-i', '--image', '--enable', '--disable', '--remote', '--remote-auth-token-env', '-p', '--profile', '-C', '--cd', '-s', '--sandbox', '-a', '--ask-for-approval', '--local-provider', '--add-dir', '-o', '--output-last-message', '--output-schema', '--color'];

/** CODEX_HOME as Codex reads it (find_codex_home: the path as given, canonicalized, no `~` expansion), else ~/.codex. */
const home = (env: Env) => folderFrom(env, [{ name: 'CODEX_HOME', tilde: false }], join(homeOf(env), '.codex'));
const codexHome = (env: Env) => home(env).path;

const idOf = (names: string[]) => ROLLOUT.exec(names[names.length - 1]!)?.[1];

/** `sessions/YYYY/MM/DD/rollout-…`; archived ones flat in archived_sessions, or dated there too. */
function layouts(env: Env): SessionLayout[] {
  const archived = join(codexHome(env), 'archived_sessions');
  return [
    { root: join(codexHome(env), 'sessions'), levels: DATED },
    { root: archived, levels: [ROLLOUT] },
    { root: archived, levels: DATED },
  ];
}

export const codex = {
  name: 'codex' as const,
  title: 'Codex',
  commands: ['codex'],
  homeFolder: '.codex',
  format: 'codex',
  roots: (env) => [join(codexHome(env), 'sessions'), join(codexHome(env), 'archived_sessions')],
  sessions: (env) => layouts(env).flatMap((layout) => sessionsAt('codex', layout.root, layout.levels, idOf)),
  layouts,
  // `resume --last` takes the newest session started in this folder (its first line's cwd), never an archived one.
  continuable(file, cwd, env) {
    if (file.path.startsWith(join(codexHome(env), 'archived_sessions') + sep)) return false;
    const head = firstLine(file.path);
    return head !== undefined && codexFormat.sessionHead!(head).cwd === cwd;
  },
  home,
  resumeFrom(args): ResumeRequest | undefined {
    const words = operands(args, TAKING_VALUE);
    const at = words[0] === 'resume' ? 0 : (words[0] === 'exec' || words[0] === 'e') && words[1] === 'resume' ? 1 : -1;
    if (at === -1) return undefined;
    const rest = args.slice(args.indexOf('resume') + 1);
    const cd = optionValue(args, ['-C', '--cd']);
    if (hasFlag(rest, ['--last'])) return { kind: 'latest', ...(typeof cd === 'string' ? { cwd: resolve(cd) } : {}), ...(hasFlag(rest, ['--all']) ? { allProjects: true } : {}) };
    const id = operands(rest, TAKING_VALUE)[0];
    // A thread name resolves only inside codex; without a value codex shows its picker.
    return id !== undefined && UUID.test(id) ? { kind: 'id', id } : { kind: 'picker' };
  },
  // Codex 0.169.0 (its hook schemas are in the binary): hooks.json beside config.toml, whose root may hold only
  // "description" and "hooks"; read with serde_json, whose derived structs refuse a duplicate key.
  hooks: {
    kind: 'settings',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder(home(process.env), 'Codex'), 'hooks.json') : join(cwd, '.codex', 'hooks.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => groupedEntry(event, { type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Codex', comments: false, trailingCommas: false, duplicateKeys: 'refuse' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
    // Codex asks before it runs a hook it has not seen: said, or the hooks look broken.
    installNote: 'Codex runs them once you trust them (/hooks)',
  },
} satisfies Agent;
