import { UserError } from '../errors.js';
import { agentNamed } from '../io/sessions/index.js';
import { terminalText } from '../report/terminal-text.js';
import { runGuard } from '../run/guard.js';
import { resolveMode } from './repair.js';

export interface GuardOptions {
  mode?: string;
  /** An agent name (commander checks the choice). */
  agent?: string;
  verbose?: boolean;
  /** Also slim each session whose replayed request does not fit (see docs/commands/slim.md). */
  slim?: boolean;
  /** False with --no-cache. */
  cache?: boolean;
  cacheDir?: string;
}

/**
 * `transcript-doctor guard -- <agent command…>`: the agent's exit code. `rawArgs` is the whole
 * command line: the agent's command must come after `--`, so none of its options is taken for
 * one of ours (Claude Code has an --agent too).
 */
export async function guardCommand(command: readonly string[], options: GuardOptions, rawArgs: readonly string[]): Promise<number> {
  const separator = rawArgs.indexOf('--');
  if (separator === -1 || rawArgs[separator + 1] !== command[0]) {
    throw new UserError(`put -- before the agent's command, e.g. transcript-doctor guard -- ${command.join(' ')}`);
  }
  // A closed terminal or pipe must not end the guard before it has repaired and passed the agent's code on.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  return runGuard(command, {
    mode: resolveMode(options.mode),
    slim: options.slim ?? false,
    agent: options.agent === undefined ? undefined : agentNamed(options.agent),
    verbose: options.verbose ?? false,
    cache: { cache: options.cache ?? true, ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }) },
    say: (line) => process.stderr.write(`transcript-doctor: ${terminalText(line)}\n`),
  });
}
