import type { JsonSyntax } from './jsonc.js';

/**
 * What an agent module says about hooking transcript-doctor into its agent (see src/agents): the
 * shapes only, so that an agent module and this folder never import each other's tables.
 */

export type HookEvent = 'session-start' | 'session-end';
export const HOOK_EVENTS: readonly HookEvent[] = ['session-start', 'session-end'];
export type Scope = 'user' | 'project';

/** An agent that runs shell commands named in a JSON settings file: where it is, how a hook is written there, what a hook is sent. */
export interface HookSettings {
  kind: 'settings';
  settingsPath(scope: Scope, cwd: string): string;
  /** The agent's own name of each event. */
  events: Record<HookEvent, string>;
  /** The hook entry appended to the event's list. */
  entry(event: HookEvent, command: string): Record<string, unknown>;
  /** Handlers sit in matcher groups (`{matcher, hooks: [...]}`), or are the list's own entries. */
  grouped: boolean;
  /** The member holding the shell command. */
  commandKey: 'command' | 'bash';
  /** How the agent reads the file (comments, trailing commas, duplicate keys, as its own parser does). */
  syntax: JsonSyntax;
  /** Members a new file starts with; a file left holding only these is ours, and removed. */
  skeleton: Record<string, unknown>;
  /**
   * The session file a hook's input names, as given: not yet checked to be one (see ownSession).
   * Undefined when it names none; throws on a malformed id.
   */
  transcriptPath(input: Record<string, unknown>): string | undefined;
  /** How a session-start warning is shown: as a `systemMessage` the agent shows, or on standard error. */
  warning: 'systemMessage' | 'stderr';
  /** Said after "installed …" when the agent does more than read the file before it runs a hook. */
  installNote?: string;
}

/** An agent that loads extensions from a folder: one small file of ours there loads the extension shipped in this package. */
export interface HookExtension {
  kind: 'extension';
  /** Where the agent loads the file from, per scope. */
  path(scope: Scope, cwd: string): string;
  /** The extension shipped in this package, by absolute path. */
  shipped: string;
  /** When the agent picks a new extension up, for the message that says it is installed. */
  loadedWhen: string;
}

/** An agent that installs plugins itself: `hooks install` only says how (a one-line message, exit 2). */
export interface HookPlugin {
  kind: 'plugin';
  howToInstall: string;
}

export type AgentHooks = HookSettings | HookExtension | HookPlugin;
