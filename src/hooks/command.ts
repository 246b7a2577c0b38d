import { fileURLToPath } from 'node:url';
import type { HookEvent } from './agents.js';

/**
 * The shell command an agent runs for our hook. It names this node and this package's bin by
 * absolute path, as they are at install time: agents run hooks from GUI launchers and
 * non-login shells whose PATH often lacks the folder npm (or nvm) put `transcript-doctor` in,
 * and `npx` could fetch another version, or hang on a prompt. After a node upgrade moves
 * them, `hooks install` again updates the command in place.
 */
export function hookShellCommand(event: HookEvent, agent: string): string {
  const bin = fileURLToPath(new URL('../../bin/transcript-doctor.js', import.meta.url));
  return `${shellQuote(process.execPath)} ${shellQuote(bin)} hook ${event} --agent ${agent}`;
}

/**
 * Whether a hook command is one of ours, however it names the executable (an absolute path as
 * installed, a bare `transcript-doctor` a user wrote, quoted or not), and for which event.
 */
export function ourEvent(command: unknown): HookEvent | undefined {
  if (typeof command !== 'string') return undefined;
  const match = /transcript-doctor(?:\.js)?['"]?\s+hook\s+(session-start|session-end)(?=\s|$)/.exec(command);
  return match === null ? undefined : (match[1] as HookEvent);
}

/** Single quotes for sh, the shell all four agents run hook commands with on Linux and macOS. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
