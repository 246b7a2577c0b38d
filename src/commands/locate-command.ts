import { Argument, type Command, Option } from 'commander';
import { AGENT_NAMES } from '../io/sessions/index.js';
import { MIN_PREFIX } from '../io/sessions/resolve.js';
import { offering } from './offered-values.js';
import { agentName } from './command-options.js';

/** Adds `locate` to the program: its arguments, options and help; the command itself is in locate.ts, loaded when it runs. */
export function addLocateCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('locate')
    .description('Print the path of a session named by its id, the start of its id, or latest.')
    .addArgument(offering(new Argument('<session>', `a session id, its first ${MIN_PREFIX} or more hex digits, or latest (the newest session of this folder's project)`), ['latest']))
    .addOption(offering(new Option('--agent <name>', `look only at this agent's sessions: ${AGENT_NAMES.join(', ')}`).argParser(agentName(AGENT_NAMES)), AGENT_NAMES))
    .option('-0, --null', 'end each path with NUL instead of a newline (xargs -0)')
    .addHelpText(
      'after',
      `
Sessions are looked for where each agent keeps them, honouring the variables the agent reads:
  openclaw     $OPENCLAW_STATE_DIR or ~/.openclaw: agents/*/sessions/<id>.jsonl
  pi           $PI_CODING_AGENT_DIR or ~/.pi/agent: sessions/--<cwd>--/<time>_<id>.jsonl; $PI_CODING_AGENT_SESSION_DIR
  claude-code  $CLAUDE_CONFIG_DIR or ~/.claude: projects/<cwd, dashed>/<id>.jsonl
  codex        $CODEX_HOME or ~/.codex: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, archived_sessions/
  gemini       $GEMINI_CLI_HOME or ~: .gemini/tmp/<project>/chats/session-<time>-<id start>.jsonl (or .json)
  copilot      $COPILOT_HOME or ~/.copilot: session-state/<id>/events.jsonl
  qwen         $QWEN_RUNTIME_DIR, $QWEN_HOME or ~/.qwen: projects/<cwd, dashed>/chats/<id>.jsonl
latest is the session modified last among those the agent's own --continue would take here (for
agents that file sessions by project, this folder's project); without --agent, of every agent.
Every command that takes files takes a session id, a start of one or latest in their place too.

Exit codes: 0 found (one path per line), 1 no session matches, 2 usage error or an id start that
several sessions share (they are listed: path, agent, time modified).

Examples:
  $ transcript-doctor locate 4f1c0011
  $ transcript-doctor locate latest --agent claude-code
  $ transcript-doctor repair --in-place 4f1c0011        # an id where a path goes
  $ transcript-doctor locate latest -0 | xargs -0 transcript-doctor scan`,
    )
    .action(async (session: string, options) => {
      setExitCode((await import('./locate.js')).locateCommand(session, options));
    });
}
