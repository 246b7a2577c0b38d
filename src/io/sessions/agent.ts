import type { AgentFolder } from './home.js';

/**
 * What the session search needs of an agent. The agents themselves, one module each, are in
 * src/agents; this folder walks the table they make and knows none of them by name.
 */

export type Env = NodeJS.ProcessEnv;

/** One session file of an agent, with the session id its name (or first line) gives. */
export interface SessionFile {
  /** The agent's name (SessionAgent.name). */
  agent: string;
  path: string;
  id: string;
}

/** How session files lie below a folder: one pattern per folder level, and the last for the file name. */
export interface SessionLayout {
  root: string;
  levels: readonly RegExp[];
}

/**
 * What an agent's command line asks it to read when it starts: a session by id (or unique
 * prefix), the newest one (of the working directory's project, for agents that file sessions by
 * project; `cwd` when the command line moves it), a file, the n-th of the project's sessions
 * (Gemini CLI), or one the user picks in a menu, which no one can know before it starts.
 */
export type ResumeRequest =
  | { kind: 'id'; id: string }
  | { kind: 'latest'; cwd?: string; allProjects?: boolean }
  | { kind: 'path'; path: string }
  | { kind: 'index'; index: number }
  | { kind: 'picker' };

/**
 * Where one agent keeps its sessions and how its command line names the one it resumes. The
 * folders honour the environment variables the agent itself reads; `format` is the name of the
 * transcript format that reads its files (see formats/registry.ts), whether or not one does yet.
 */
export interface SessionAgent {
  name: string;
  /** Names its command goes by (argv[0]'s basename). */
  commands: readonly string[];
  /** Its hidden folder in a home (`.claude`): a folder search enters it, though it passes other hidden folders over. */
  homeFolder: string;
  format: string;
  /** The folders holding its sessions on this machine, whether or not they exist. */
  roots(env: Env): string[];
  /** Every session file it has here. */
  sessions(env: Env): SessionFile[];
  /** Where its session files can be, as `sessions` walks them: what a path handed to us must fit to be one (see own-session.ts). */
  layouts(env: Env): SessionLayout[];
  /**
   * Its own folder (settings, hooks, extensions), as the agent resolves the variable that moves
   * it; for an agent whose sessions may live elsewhere (Qwen Code's QWEN_RUNTIME_DIR), its configuration's.
   */
  home(env: Env): AgentFolder;
  /**
   * Whether the agent's own `--continue` (or `--last`) would take this session when started in
   * `cwd`: for agents that file sessions by project, only that project's. Absent: every session.
   */
  continuable?(file: SessionFile, cwd: string, env: Env): boolean;
  /** The session its arguments (after the command name) ask it to read; undefined when they start a new one. */
  resumeFrom(args: readonly string[]): ResumeRequest | undefined;
}
