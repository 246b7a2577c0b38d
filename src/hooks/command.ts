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

/** One word as shellQuote writes it: bare, or in single quotes with each quote as `'\''`. */
const WORD = String.raw`[\w@%+=:,./-]+|'[^']*'(?:\\''[^']*')*`;
const OURS = new RegExp(`^(${WORD}) (${WORD}) hook (session-start|session-end) --agent ([\\w-]+)$`);

/**
 * Which event a hook command of ours is for: exactly what hookShellCommand writes for `agent`
 * (a node and this package's bin by absolute path, wherever an upgrade has moved them), nothing
 * more. A user's own command that runs transcript-doctor (`transcript-doctor hook session-end
 * … >> log`) is theirs: install leaves it as it is and uninstall keeps it.
 */
export function ourEvent(command: unknown, agent: string): HookEvent | undefined {
  if (typeof command !== 'string') return undefined;
  const match = OURS.exec(command);
  if (match === null || match[4] !== agent) return undefined;
  const [node, bin] = [unquote(match[1]!), unquote(match[2]!)];
  return node.startsWith('/') && bin.startsWith('/') && bin.endsWith('/bin/transcript-doctor.js') ? (match[3] as HookEvent) : undefined;
}

function unquote(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}

/** Single quotes for sh, the shell all four agents run hook commands with on Linux and macOS. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
