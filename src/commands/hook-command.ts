import { Argument, type Command, Option } from 'commander';
import { settingsAgents } from '../hooks/agents.js';
import { offering } from './offered-values.js';
import { fullName } from './command-options.js';

/** The agents whose hooks run `hook`. */
const HOOKED = settingsAgents().map((agent) => agent.name);

/** Adds `hook` to the program: its arguments, options and help; the command itself is in hook.ts, loaded when it runs. */
export function addHookCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('hook')
    .description('Run as an agent hook (what hooks install writes): reads the JSON the agent sends on standard input.')
    .addArgument(offering(new Argument('<event>', 'session-start (warn when the resumed file is damaged) or session-end (repair it for next time)'), ['session-start', 'session-end']))
    .addOption(offering(new Option('--agent <name>', `the agent running the hook: ${HOOKED.join(', ')}`).argParser(fullName), HOOKED))
    .addOption(offering(new Option('-m, --mode <mode>', 'what to do with a tool call that has no result: discard (default, or $OPENCLAW_TOOL_GUARD_ABORT_MODE) or synthetic'), ['discard', 'synthetic']))
    .addHelpText(
      'after',
      `
Never stands in the agent's way: any trouble is one line on standard error, and the exit code is 0.
Acts only on the --agent's own session files, in its session folders (the path resolved, links
followed once and checked again) and in its format; whatever else the input names is left alone.

Examples:
  $ echo '{"transcript_path":"/path/to/session.jsonl","source":"resume"}' | transcript-doctor hook session-start --agent claude-code
  $ echo '{"sessionId":"4f1c0011-…"}' | transcript-doctor hook session-end --agent copilot`,
    )
    .action(async (event: string, options) => {
      setExitCode(await (await import('./hook.js')).hookCommand(event, options));
    });
}
