import { join } from 'node:path';
import { clipped } from '../errors.js';
import { agentNamed } from '../io/sessions/index.js';
import type { JsonSyntax } from './jsonc.js';
import { userFolder } from './user-folder.js';

/**
 * Per agent: where its hook configuration lives, how a hook is written there, what it sends a
 * hook on standard input, and how a hook's message reaches the user. Read from each client's
 * own code and docs: Claude Code 2.1.328, Codex 0.169.0 (its hook schemas are in the binary),
 * Gemini CLI 0.61.0 (settings schema `HookDefinitionArray`), Copilot CLI 1.0.102 (hooks reference).
 */

export type HookEvent = 'session-start' | 'session-end';
export const HOOK_EVENTS: readonly HookEvent[] = ['session-start', 'session-end'];
export type Scope = 'user' | 'project';

export interface SettingsAgent {
  name: 'claude-code' | 'codex' | 'gemini-cli' | 'copilot-cli';
  /** What the user calls it, in messages. */
  title: string;
  settingsPath(scope: Scope, cwd: string): string;
  /** The agent's own name of each event. */
  events: Record<HookEvent, string>;
  /** The hook entry appended to the event's list. */
  entry(event: HookEvent, command: string): Record<string, unknown>;
  /** Handlers sit in matcher groups (`{matcher, hooks: [...]}`), or are the list's own entries. */
  grouped: boolean;
  /** The member holding the shell command. */
  commandKey: 'command' | 'bash';
  /**
   * How the agent reads the file: Claude Code (its settings refuse comments and trailing commas)
   * and Copilot CLI (its native loader: tried on 1.0.102, last duplicate key wins) as JSON.parse;
   * Gemini CLI as JSON.parse after strip-json-comments (no trailing commas); Codex with serde_json,
   * whose derived structs refuse a duplicate key. None takes a byte order mark.
   */
  syntax: JsonSyntax;
  /** Members a new file starts with; a file left holding only these is ours, and removed. */
  skeleton: Record<string, unknown>;
  /**
   * The session file a hook's input names (Copilot sends only the session id), as given: not yet
   * checked to be one (see ownSession). Undefined when it names none; throws on a malformed id.
   */
  transcriptPath(input: Record<string, unknown>): string | undefined;
  /** How a session-start warning is shown: Copilot ignores a sessionStart hook's output. */
  warning: 'systemMessage' | 'stderr';
}

/** Claude Code, Codex and Gemini CLI share one shape: `{matcher?, hooks: [{type: "command", command}]}`. */
function grouped(event: HookEvent, handler: Record<string, unknown>): Record<string, unknown> {
  return event === 'session-start' ? { matcher: 'resume', hooks: [handler] } : { hooks: [handler] };
}

const transcriptPathField = (input: Record<string, unknown>): string | undefined =>
  typeof input.transcript_path === 'string' && input.transcript_path !== '' ? input.transcript_path : undefined;

export const settingsAgents: readonly SettingsAgent[] = [
  {
    name: 'claude-code',
    title: 'Claude Code',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder('claude-code', 'Claude Code'), 'settings.json') : join(cwd, '.claude', 'settings.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => grouped(event, { type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Claude Code', comments: false, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
  {
    name: 'codex',
    title: 'Codex',
    // hooks.json beside config.toml; its root may hold only "description" and "hooks".
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder('codex', 'Codex'), 'hooks.json') : join(cwd, '.codex', 'hooks.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => grouped(event, { type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Codex', comments: false, trailingCommas: false, duplicateKeys: 'refuse' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
  {
    name: 'gemini-cli',
    title: 'Gemini CLI',
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder('gemini-cli', 'Gemini CLI'), 'settings.json') : join(cwd, '.gemini', 'settings.json')),
    events: { 'session-start': 'SessionStart', 'session-end': 'SessionEnd' },
    entry: (event, command) => grouped(event, { name: `transcript-doctor-${event}`, type: 'command', command }),
    grouped: true,
    commandKey: 'command',
    syntax: { reader: 'Gemini CLI', comments: true, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: {},
    transcriptPath: transcriptPathField,
    warning: 'systemMessage',
  },
  {
    name: 'copilot-cli',
    title: 'Copilot CLI',
    // Copilot reads every *.json in its hooks folders, so ours is a file of its own.
    settingsPath: (scope, cwd) => (scope === 'user' ? join(userFolder('copilot-cli', 'Copilot CLI'), 'hooks', 'transcript-doctor.json') : join(cwd, '.github', 'hooks', 'transcript-doctor.json')),
    events: { 'session-start': 'sessionStart', 'session-end': 'sessionEnd' },
    entry: (_event, command) => ({ type: 'command', bash: command }),
    grouped: false,
    commandKey: 'bash',
    syntax: { reader: 'Copilot CLI', comments: false, trailingCommas: false, duplicateKeys: 'last' },
    skeleton: { version: 1 },
    transcriptPath: (input) => {
      const given = input.transcriptPath ?? input.transcript_path;
      if (typeof given === 'string' && given !== '') return given;
      const id = input.sessionId ?? input.session_id;
      if (id === undefined || id === null || id === '') return undefined;
      // An id is one folder name, as Copilot makes them (a UUID): a separator, `..` or a leading dot names nothing.
      if (typeof id !== 'string' || !/^[\w-][\w.-]*$/.test(id) || id.includes('..')) throw new Error(`session id ${clipped(JSON.stringify(String(id)))} is not one Copilot CLI makes; nothing done`);
      return join(agentNamed('copilot-cli')!.roots(process.env)[0]!, id, 'events.jsonl');
    },
    warning: 'stderr',
  },
];

/** Every agent `hooks install` knows: the settings-file agents, pi's extension, OpenClaw's plugin. */
export const HOOK_AGENTS = [...settingsAgents.map((agent) => agent.name), 'pi', 'openclaw'] as const;

export function settingsAgent(name: string): SettingsAgent | undefined {
  return settingsAgents.find((agent) => agent.name === name);
}
