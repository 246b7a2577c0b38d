import { type Command, Option } from 'commander';
import { AGENT_NAMES } from '../io/sessions/index.js';
import { offering } from './offered-values.js';
import { agentName, withCacheOptions } from './command-options.js';

/** Adds `guard` to the program: its arguments, options and help; the command itself is in guard.ts, loaded when it runs. */
export function addGuardCommand(program: Command, setExitCode: (code: number) => void): void {
  const guard = program
    .command('guard')
    .usage('[options] -- <agent command...>')
    .description('Run an agent so that the session it resumes is repaired before it starts, and the sessions it writes are repaired when it exits.')
    .argument('<command...>', 'the agent\'s command line, after --')
    .addOption(new Option('-m, --mode <mode>', 'what to do with a tool call that has no result: drop the pair, or add an error result').choices(['discard', 'synthetic']).default(undefined, 'discard, or $OPENCLAW_TOOL_GUARD_ABORT_MODE'))
    .addOption(offering(new Option('--agent <name>', `the agent the command starts, when its name does not say it: ${AGENT_NAMES.join(', ')}`).argParser(agentName(AGENT_NAMES)), AGENT_NAMES))
    .option('--verbose', 'also say what was checked and found clean')
    .option('--slim', 'also slim each of those sessions whose replayed request does not fit its model (as slim --in-place does)');
  withCacheOptions(guard)
    .addHelpText(
      'after',
      `
Before the agent starts, the session its own arguments name is repaired in place as repair
--in-place does (lock check, backup, atomic write): claude --resume <id> / --continue, codex
[exec] resume <id> / --last, gemini --resume <id|latest|n>, copilot --resume=<id> / --continue,
qwen --resume <id> / --continue, pi --session <file|id> / --continue. The agent then gets the
terminal, standard input and output; SIGTERM and SIGHUP sent to the guard are passed on to it
(so is SIGINT when no terminal is the input: on a terminal Ctrl-C reaches the agent itself).
When it exits, however it exits, every session of it that changed during the run (in this
folder's project, for agents that file sessions by project) and the one it resumed are repaired,
read as the agent's own format, except any another live process may be writing (docs/guard.md).
One line on standard error per session repaired or left alone; nothing when all are clean.
A signal after the agent has exited stops the repair (the session is left as it was), exit 128+n.

Exit code: the agent's (128 + the signal number when a signal ended it); 127 when the command is
not found, 126 when it cannot be run; 2 for a usage error of guard itself.

Examples:
  $ transcript-doctor guard -- claude --resume 4f1c0011-7a7e-4c55-9b61-0f4e4a7f2b10
  $ transcript-doctor guard --mode synthetic -- codex resume --last
  $ alias claude='transcript-doctor guard -- claude'`,
    )
    .action(async (command: string[], options) => {
      // commander keeps the whole command line in rawArgs, untyped: guard checks where -- was.
      const rawArgs = (program as unknown as { rawArgs: string[] }).rawArgs;
      setExitCode(await (await import('./guard.js')).guardCommand(command, options, rawArgs));
    });
}
