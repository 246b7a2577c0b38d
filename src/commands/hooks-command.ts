import { Argument, type Command, Option } from 'commander';
import { hookAgentNames } from '../hooks/agents.js';
import { offering } from './offered-values.js';
import { fullName } from './command-options.js';

/** Adds `hooks` to the program: its arguments, options and help; the command itself is in hooks.ts, loaded when it runs. */
export function addHooksCommand(program: Command, setExitCode: (code: number) => void): void {
  const hooks = program
    .command('hooks')
    .description("Install or remove transcript-doctor in an agent's own hooks, so its sessions are repaired without anyone running the tool.")
    .addHelpText(
      'after',
      `
Claude Code, Codex, Gemini CLI, Copilot CLI: a session-end hook repairs the session file for the
next resume (as repair --in-place: lock check, backup, atomic write), and a session-start hook,
on resume, warns in one line naming the fix when the file is damaged (the agent has read it by
then). pi: an extension that repairs the session /resume opens, and closes open tool calls when
pi exits. OpenClaw: a plugin, installed with OpenClaw's own command (see the README).

Examples:
  $ transcript-doctor hooks install claude-code
  $ transcript-doctor hooks install codex --dry-run
  $ transcript-doctor hooks install gemini --scope project
  $ transcript-doctor hooks uninstall copilot`,
    );
  for (const action of ['install', 'uninstall'] as const) {
    hooks
      .command(action)
      .description(
        action === 'install'
          ? "Add the hooks to the agent's settings, merged into what is there (a backup of the file is kept; twice is the same as once)."
          : 'Take our hooks out of the agent\'s settings again, leaving everything else as it was (a file install created is removed).',
      )
      .addArgument(offering(new Argument('<agent>', hookAgentNames().join(', ')).argParser(fullName), hookAgentNames()))
      .option('--dry-run', 'print the change as a unified diff, write nothing')
      .addOption(new Option('--scope <scope>', 'user: your settings (~/.claude, ~/.codex, ~/.gemini, ~/.copilot, ~/.pi/agent); project: the ones in this folder').choices(['user', 'project']).default('user'))
      .addHelpText(
        'after',
        `
Files: claude-code ~/.claude/settings.json (project: .claude/settings.json), codex ~/.codex/hooks.json
(.codex/hooks.json), gemini ~/.gemini/settings.json (.gemini/settings.json), copilot
~/.copilot/hooks/transcript-doctor.json (.github/hooks/transcript-doctor.json), pi
~/.pi/agent/extensions/transcript-doctor.js (.pi/extensions/transcript-doctor.js). The user folders
move with $CLAUDE_CONFIG_DIR, $CODEX_HOME, $GEMINI_CLI_HOME (then $GEMINI_CLI_HOME/.gemini),
$COPILOT_HOME and $PI_CODING_AGENT_DIR, read as each agent reads them (docs/hooks.md).

Exit codes: 0 done (or nothing to do), 2 usage error, a settings file the agent would not read
(not JSON as it parses it, not UTF-8, not a regular file or a link to one), or a refused write.

Examples:
  $ transcript-doctor hooks ${action} claude-code
  $ transcript-doctor hooks ${action} pi --dry-run`,
      )
      .action(async (agent: string, options) => {
        setExitCode(await (await import('./hooks.js')).hooksCommand(action, agent, options));
      });
  }
}
