import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The home folder as the agents see it: $HOME first, as Node's os.homedir() does. */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/**
 * How an agent reads a variable that moves its folder. pi, Qwen Code and OpenClaw expand a
 * leading `~` themselves; Claude Code, Codex, Gemini CLI and Copilot CLI do not, so for them
 * `~/x` (a quoted shell variable, a launchd or `.env` value) is a folder named `~` in the folder
 * they start in. Every one of them takes an empty value as unset.
 */
export interface FolderVariable {
  name: string;
  tilde: boolean;
  /** OpenClaw trims the value first. */
  trim?: boolean;
}

/** An agent's folder as the agent itself resolves it, and the variable that put it there. */
export interface AgentFolder {
  path: string;
  /** The variable and its value, when one set the folder. */
  from?: { name: string; value: string; tilde: boolean };
  /** The value names no absolute folder: the agent finds it from the folder it starts in, `cwd` here. */
  relative: boolean;
}

/** The folder the first set variable names, else `fallback`; a relative value is taken from `cwd`, as the agent started there would. */
export function folderFrom(env: NodeJS.ProcessEnv, variables: readonly FolderVariable[], fallback: string, cwd = process.cwd()): AgentFolder {
  for (const variable of variables) {
    const given = env[variable.name];
    const value = variable.trim ? given?.trim() : given;
    if (!value) continue;
    const expanded = variable.tilde ? expandTilde(value, env) : value;
    return { path: resolve(cwd, expanded), from: { name: variable.name, value, tilde: variable.tilde }, relative: !isAbsolute(expanded) };
  }
  return { path: fallback, relative: false };
}

/** `~`, `~/…` and `~\…`, as pi, Qwen Code and OpenClaw expand them (never `~user`). */
function expandTilde(path: string, env: NodeJS.ProcessEnv): string {
  if (path === '~') return homeOf(env);
  return /^~[/\\]/.test(path) ? join(homeOf(env), path.slice(2)) : path;
}
