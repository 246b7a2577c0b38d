import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UserError } from './errors.js';
import { argvWithBytes } from './io/argv.js';
import { formats } from './formats/registry.js';
import { reporterNames } from './report/index.js';
import { SHOWN_PER_RULE } from './report/fold.js';
import { terminalText } from './report/terminal-text.js';
import { PROVIDER_IDS } from './providers/provider-id.js';
import { AGENT_NAMES } from './io/sessions/index.js';
import { MIN_PREFIX } from './io/sessions/resolve.js';
import { HOOK_AGENTS, settingsAgents } from './hooks/agents.js';
import { version } from './version.js';
import { linkDocPages } from './commands/doc-pages.js';
import { collect, offering } from './commands/offered-values.js';
import { addCompletionCommand } from './commands/completion-command.js';

const REPORTER_HELP = `report format, repeatable: ${reporterNames.join(', ')} (default: stylish)`;
const PROVIDER_HELP = `judge every transcript against this provider's contract (${PROVIDER_IDS.join(', ')}); default: config "provider", else the provider each file talks to`;
const PRINT_CONFIG_HELP = 'print the project config in effect (the file it came from, every rule\'s severity, ignores) as JSON, and check nothing';
const KEEP_BACKUPS_HELP = 'with --in-place: keep the newest n backups of each file, removing older ones once the write has succeeded (default: config "keepBackups", else 3)';
const OUTPUT_FILE_HELP = 'write the report to a file instead of standard output; with several reporters, <reporter>:<path>';

/** The agents whose settings file holds our hook commands. */
const HOOKED = settingsAgents.map((agent) => agent.name);

/** Commands load their modules when run: `scan` does not pay for the judge or the writer. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('transcript-doctor')
    .description('Find and repair broken agent session transcripts (pi / OpenClaw, Claude Code, Codex, Gemini CLI and Qwen Code).')
    .version(version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  const scan = program
    .command('scan')
    .description('Check transcripts and report every problem, with the provider error it causes.')
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl), globs, or - for standard input; default: the pi / OpenClaw, Claude Code, Codex and Qwen Code session folders on this machine')
    .addOption(agentOption())
    .option('--fix', 'repair what scan finds, as repair --in-place does (lock check, backup, atomic write), and report what is left')
    .addOption(new Option('-m, --mode <mode>', 'with --fix: what to do with a tool call that has no result').choices(['discard', 'synthetic']))
    .option('--keep-backups <n>', KEEP_BACKUPS_HELP.replace('--in-place', '--fix'))
    .option('-c, --config <file>', 'project config (default: the nearest transcript-doctor.config.json)')
    .option('--print-config', PRINT_CONFIG_HELP)
    .addOption(providerOption())
    .option('-j, --jobs <n>', 'threads scanning files at once (default: the number of CPUs)')
    .option('--baseline <file>', 'report only findings that are not in this baseline')
    .option('--write-baseline <file>', 'record the current findings as the baseline')
    .option('--max-warnings <n>', 'exit 1 when more than n warnings are found')
    .option('--exit-zero', 'exit 0 whatever is found (usage and I/O errors still exit 2)')
    .option('-l, --files-with-errors', 'print only the paths of failing files, one per line (reports go only to --output-file), and exit like grep -l: 0 when one was listed, 1 when none; a file fails when it has an error, or a warning once the run has more than --max-warnings')
    .option('--shard <i/n>', 'scan only shard i of n: each file goes to the shard a stable hash of its path relative to the working directory picks (./a and a are the same path)');
  withCacheOptions(scan).addOption(offering(new Option('--cache-strategy <how>', 'how the cache knows a file again: metadata (default: identity, size, times and its first and last bytes) or content (every byte hashed: for CI, whose checkouts make new files of the same bytes)'), ['metadata', 'content']));
  withListOptions(scan, true);
  withReportOptions(scan, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings), 2 usage error or unreadable input; with -l, as grep -l: 0 a file was listed, 1 none.

The config's "ignores" apply to the files folder and glob searches find; a file named on the
command line or in --files-from is always checked (every command).

Examples:
  $ transcript-doctor scan                         # the session folders on this machine
  $ transcript-doctor scan ~/.openclaw/agents/main/sessions
  $ transcript-doctor scan ~/.gemini/tmp/*/chats ~/.gemini/tmp/*/checkpoint-*.json   # Gemini CLI sessions, /chat save checkpoints
  $ transcript-doctor scan 'logs/**/*.jsonl' --reporter json -o report.json
  $ cat session.jsonl | transcript-doctor scan -
  $ transcript-doctor scan --provider mistral session.jsonl   # before switching the session to Mistral
  $ transcript-doctor scan -l -0 sessions/ | xargs -0 -r transcript-doctor repair --in-place
  $ find logs -name '*.jsonl' -print0 | transcript-doctor scan --files-from - -0
  $ transcript-doctor scan logs/ --shard 2/4 -r json -o shard-2.json   # then: merge-reports shard-*.json`,
    )
    .action(async (paths: string[], options) => {
      setExitCode(await (await import('./commands/scan.js')).scanCommand(paths, options));
    });

  withRewriteOptions(
    program
      .command('repair')
      .description('Fix transcripts so the replayed history is accepted again; unchanged lines are copied byte for byte.')
      .addOption(
        new Option('-m, --mode <mode>', 'what to do with a tool call that has no result: drop the pair, or add an error result')
          .choices(['discard', 'synthetic'])
          .default(undefined, 'discard, or $OPENCLAW_TOOL_GUARD_ABORT_MODE'),
      )
      .addOption(providerOption()),
    `
Exit codes: 0 every output is clean, 1 errors remain, 2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor repair --in-place ~/.openclaw/agents/main/sessions/<id>.jsonl
  $ transcript-doctor repair --dry-run ~/.openclaw/agents/main/sessions
  $ transcript-doctor repair --provider openai-chat session.jsonl > for-openai.jsonl
  $ cat session.jsonl | transcript-doctor repair - > fixed.jsonl`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./commands/repair.js')).repairCommand(paths, options));
  });

  withRewriteOptions(
    program
      .command('slim')
      .description('Make a session too big to resume fit again: images over a limit, old images and old tool results give way to stubs, least loss first, until the replayed request fits.')
      .option('--target <tokens|N%>', 'the size the replayed request must come under: tokens, or a share of the model\'s context window (default: 60% of the window, and under every other limit)')
      .option('--keep-turns <n>', 'the latest n user turns are never slimmed (default 2); the latest turn is always kept byte for byte')
      .option('--provider <id>', PROVIDER_HELP),
    `
Exit codes: 0 every output fits and is clean, 1 a session still does not fit (or errors remain),
2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor slim --dry-run latest
  $ transcript-doctor slim --in-place <id>
  $ transcript-doctor slim --target 60% --out slim.jsonl <id>`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./commands/slim.js')).slimCommand(paths, options));
  });

  withRewriteOptions(
    program
      .command('canonicalize')
      .description('Rewrite legacy and foreign tool-call shapes to the canonical form; everything else is kept exactly.')
      .option('--check', 'write nothing; list every line that would change and exit 1 if any (for CI)'),
    `
Exit codes: 0 canonical (or made so), 1 lines left that cannot be settled without guessing (with
--check: lines that would change), 2 usage error, unreadable input or refused write.

Examples:
  $ transcript-doctor canonicalize --check 'sessions/**/*.jsonl'
  $ transcript-doctor canonicalize --in-place session.jsonl
  $ cat legacy.jsonl | transcript-doctor canonicalize - | transcript-doctor repair - > fixed.jsonl`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./commands/canonicalize.js')).canonicalizeCommand(paths, options));
  });

  const verify = program
    .command('verify')
    .description("Have a verifier model judge whether each final answer addressed the user's request (LLM as a judge).")
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl), globs, or - for standard input; default: the session folders on this machine')
    .option('--model <provider/model>', 'verifier model, e.g. anthropic/claude-sonnet-4-5, openai/gpt-4.1 (default: agents.defaults.verifier.model)')
    .option('--config <file>', 'OpenClaw config to read agents.defaults.verifier from (default: ~/.openclaw/openclaw.json)')
    .option('--base-url <url>', 'OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter, LM Studio)')
    .option('--api-key-env <name>', 'environment variable holding the API key (default: ANTHROPIC_API_KEY / OPENAI_API_KEY)')
    .option('--all', 'judge every final answer, not only those with a trigger keyword (verifyAll)')
    .option('--heartbeat', 'judge every heartbeat answer, to catch a lazy HEARTBEAT_OK (verifyHeartbeat)')
    .option('--keywords <list>', 'comma-separated trigger keywords (default: done, completed, finished, ready, here you go)')
    .option('--messaging-tools <list>', 'comma-separated tools whose use means the answer was already delivered')
    .option('--rules <file>', 'a rules file for the judge; repeat for several (default: AGENTS.md, SOUL.md, HEARTBEAT.md in the session folder)', collect)
    .option('--timeout <seconds>', 'per request (default 30)')
    .option('--retries <n>', 'retries on 429 and 5xx, with backoff', '2')
    .option('--concurrency <n>', 'requests at once', '4')
    .option('--no-cache', 'ignore and do not fill the verdict cache')
    .option('--cache-dir <dir>', 'where verdicts are cached (default: the user cache folder)')
    .option('--fail-closed', 'exit 2 when the judge errs (default: errors are reported and do not fail)')
    .addOption(agentOption())
    .option('--print-config', PRINT_CONFIG_HELP);
  withListOptions(verify);
  withReportOptions(verify, 'report FAIL and ERROR only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
Exit codes: 0 no FAIL, 1 some FAIL, 2 usage error (or, with --fail-closed, a judge ERROR).

Examples:
  $ transcript-doctor verify --model anthropic/claude-sonnet-4-5 session.jsonl
  $ transcript-doctor verify --all --model openai/llama3.1 --base-url http://localhost:11434/v1 sessions/
  $ transcript-doctor verify --heartbeat --model anthropic/claude-sonnet-4-5 --rules workspace/HEARTBEAT.md sessions/`,
    )
    .action(async (paths: string[], options) => {
      setExitCode(await (await import('./commands/verify.js')).verifyCommand(paths, options));
    });

  const merge = program
    .command('merge-reports')
    .description('Merge JSON reports (from --shard runs) into any reporter, with the summary and exit code of one run over everything.')
    .argument('<reports...>', 'JSON reports written by scan -r json (or repair, canonicalize, verify)')
    .option('--max-warnings <n>', 'exit 1 when more than n warnings are found in all reports together')
    .option('--exit-zero', 'exit 0 whatever is found (unreadable or mismatched reports still exit 2)');
  withReportOptions(merge, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
Files are listed in path order. Refused with exit 2: a report that is not readable JSON or not a
transcript-doctor report, reports from different versions or rule sets, and a file in two reports.

Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings, or a FAIL verdict), 2 usage error.

Examples:
  $ transcript-doctor merge-reports shard-*.json -r sarif -o merged.sarif
  $ transcript-doctor merge-reports a.json b.json -r junit --output-file junit:junit.xml -r stylish`,
    )
    .action(async (reports: string[], options) => {
      setExitCode(await (await import('./commands/merge-reports.js')).mergeReportsCommand(reports, options));
    });

  program
    .command('explain')
    .description('Go from a provider\'s HTTP 400 (or 413) error text to the session, the line and the command that fixes it: repair for the pairing family, slim for the size family.')
    .argument('<error>', 'the error text as pasted: the bare message, the JSON error body or a whole log line; - reads it from standard input')
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl, into the agents\' hidden folders) or globs to look in; default: the session folders on this machine')
    .option('--fix', 'repair the session found, as repair --in-place does (lock check, backup, atomic write); for a size error, slim it in place')
    .option('--hidden', HIDDEN_HELP)
    .addOption(new Option('-r, --reporter <name>', 'report format; json gives one document (default: stylish)').choices(['stylish', 'json']))
    .option('--no-color', 'disable colours (also: NO_COLOR)')
    .addHelpText(
      'after',
      `
Exit codes: 0 the session was found (and, with --fix, repaired or slimmed), 1 the error is recognised
but no session matches (the output says where it looked), or --fix slimmed it and it is still over
its target, 2 unrecognised error text, usage error or refused write.

Examples:
  $ transcript-doctor explain 'messages.14: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_01GfghBCkxKjjizDvsyeWy5B'
  $ pbpaste | transcript-doctor explain -
  $ transcript-doctor explain "No tool output found for function call call_sU7XBNcR8nNV7j2rvuzYEHCP" --fix
  $ transcript-doctor explain 'prompt is too long: 215366 tokens > 200000 maximum'`,
    )
    .action(async (error: string, paths: string[], options) => {
      setExitCode(await (await import('./commands/explain.js')).explainCommand(error, paths, options));
    });

  program
    .command('rules')
    .description('List every rule, or show one rule’s documentation.')
    .argument('[id]', 'a rule id, e.g. missing-tool-result')
    .action(async (id: string | undefined) => {
      setExitCode((await import('./commands/rules.js')).rulesCommand(id));
    });

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
      .addArgument(offering(new Argument('<agent>', HOOK_AGENTS.join(', ')).argParser(fullName), HOOK_AGENTS))
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
        setExitCode(await (await import('./commands/hooks.js')).hooksCommand(action, agent, options));
      });
  }

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
      setExitCode(await (await import('./commands/hook.js')).hookCommand(event, options));
    });

  program
    .command('restore')
    .description('Put a session back as it was before an in-place write: the newest backup (<file>.bak-<time>), or the one named.')
    .argument('<file>', 'the session file (it may have been deleted: its backups bring it back)')
    .option('--list', 'list the backups, newest first (name, size, age), how many in-place writes keep, and restore nothing')
    .option('-c, --config <file>', 'project config whose "keepBackups" --list reports (default: the nearest transcript-doctor.config.json)')
    .option('--backup <name>', 'restore this backup instead of the newest: its file name or its time stamp, as --list shows them')
    .option('--force', 'restore even if a live agent holds the session\'s lock file')
    .addHelpText(
      'after',
      `
The file it replaces is kept as a backup of its own, so a restore can be undone by restoring
again; restore itself removes no backup. It writes as repair --in-place does: refused while an
agent holds the lock, through a temp file renamed over the session. In-place writes (repair,
canonicalize, scan --fix, guard, hooks) keep the newest 3 backups of a session (--keep-backups,
config "keepBackups"); --list marks those the next write will remove.

Exit codes: 0 restored (or listed), 2 no backups, unknown backup name, locked session, usage error or failed write.

Examples:
  $ transcript-doctor restore --list ~/.openclaw/agents/main/sessions/<id>.jsonl
  $ transcript-doctor restore ~/.openclaw/agents/main/sessions/<id>.jsonl     # the newest backup
  $ transcript-doctor restore --backup 2026-11-26T10-05-00-123Z session.jsonl`,
    )
    .action(async (file: string, options) => {
      setExitCode(await (await import('./commands/restore.js')).restoreCommand(file, options));
    });

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
      setExitCode((await import('./commands/locate.js')).locateCommand(session, options));
    });

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
      setExitCode(await (await import('./commands/guard.js')).guardCommand(command, options, rawArgs));
    });

  addCompletionCommand(program, setExitCode);
  linkDocPages(program);
  return program;
}

/** The scan cache (docs/cache.md): on unless --no-cache. */
function withCacheOptions(command: Command): Command {
  return command
    .option('--no-cache', 'check every file afresh, without reading or writing the scan cache (docs/cache.md)')
    .option('--cache-dir <dir>', 'where the scan cache lives (default: $XDG_CACHE_HOME/transcript-doctor/scan, else ~/.cache/transcript-doctor/scan)');
}

/** Reading the list of transcripts from a file or standard input. */
function withListOptions(command: Command, listsOut = false): Command {
  return command
    .option('--files-from <file>', 'also read the paths to check from this file, one per line (- for standard input); an empty list checks nothing')
    .option('-0, --null', `with --files-from: the list is NUL-separated (find -print0)${listsOut ? '; with -l: write the list NUL-separated (xargs -0)' : ''}`)
    .option('--hidden', HIDDEN_HELP);
}

const HIDDEN_HELP = 'also search hidden folders and files inside the folders given (the agents\' own, .claude, .codex, .gemini, .copilot, .qwen, .openclaw and .pi, are searched without it)';

/** `--agent`: the transcript format, for a file too damaged or too unusual to detect. */
function agentOption(): Option {
  const names = formats.map((format) => format.name);
  return offering(new Option('--agent <name>', `transcript format (the agent that wrote it), instead of detecting it per file: ${names.join(', ')}`).argParser(agentName(names)), names);
}

/** `--provider`: the contract to judge against, checked by the command. */
function providerOption(): Option {
  return offering(new Option('--provider <id>', PROVIDER_HELP), PROVIDER_IDS);
}

/** The short names people type for agents whose full names say which program they are. */
const SHORT_NAMES: Readonly<Record<string, string>> = { claude: 'claude-code', gemini: 'gemini-cli', copilot: 'copilot-cli', qwen: 'qwen-code' };

/** An agent's full name for the short one; any other name as it is, for the command to judge. */
const fullName = (value: string): string => SHORT_NAMES[value] ?? value;

/** An agent's name as every command takes it: its full name, or the short one (gemini for gemini-cli). */
function agentName(names: readonly string[]): (value: string) => string {
  return (value) => {
    const name = fullName(value);
    if (!names.includes(name)) throw new InvalidArgumentError(`Allowed choices are ${names.join(', ')}.`);
    return name;
  };
}

/** The report options every command has; -f/--format and --output-format are ESLint's and Ruff's names for -r. */
function withReportOptions(command: Command, quietHelp: string, outputFileFlags: string): Command {
  return command
    .addOption(offering(new Option('-r, --reporter <name>', REPORTER_HELP).argParser(collect), reporterNames))
    .addOption(offering(new Option('-f, --format <name>', 'report format, as ESLint names it (same as -r)').argParser(collect), reporterNames))
    .addOption(offering(new Option('--output-format <name>', 'report format, as Ruff names it (same as -r)').argParser(collect), reporterNames))
    .option(outputFileFlags, OUTPUT_FILE_HELP, collect)
    .option('-q, --quiet', quietHelp)
    .option('--all-findings', `stylish: list every finding (by default a file shows the first ${SHOWN_PER_RULE} of a rule, then "… and N more <rule> in this file")`)
    .option('--statistics', 'stylish: print a count of findings per rule (count, rule, severity, fix), most frequent first, instead of the findings')
    .option('--no-color', 'disable colours (also: NO_COLOR)');
}

/** Options `repair` and `canonicalize` share: where the rewritten transcript goes, and the report. */
function withRewriteOptions(command: Command, help: string): Command {
  command
    .argument('[paths...]', 'files, directories (searched for **/*.jsonl), globs, or - for standard input')
    .option('-i, --in-place', 'replace each file (atomically, keeping a .bak-<timestamp> copy)')
    .option('--no-backup', 'with --in-place: keep no backup copy')
    .option('--keep-backups <n>', KEEP_BACKUPS_HELP)
    .option('--force', 'with --in-place: write even if a live agent holds the lock file')
    .option('--out <path>', 'write the rewritten transcript here: a file, or a folder (ending in / or existing; always for several inputs), or - for standard output')
    .addOption(new Option('--output <path>', 'old name of --out').hideHelp())
    .option('--dry-run', 'show what would change, write nothing')
    .option('--diff', 'print a unified diff of the lines that would change, write nothing; exit 1 when a file would change')
    .addOption(agentOption())
    .option('-c, --config <file>', 'project config (default: the nearest transcript-doctor.config.json)')
    .option('--print-config', PRINT_CONFIG_HELP);
  withListOptions(command);
  // -o is the report file here too, as in every command (and in ESLint and Ruff); --out takes the transcript.
  return withReportOptions(command, 'report errors only', '-o, --output-file <path>')
    .addHelpText(
      'after',
      `
With one input and no --in-place, --out or --dry-run, the result goes to standard output and
the report to standard error.
${help}`,
    );
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  program.commands.forEach((command) => command.exitOverride());
  try {
    await program.parseAsync(argvWithBytes(argv));
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    const message = error instanceof UserError ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`);
    if (error instanceof UserError) for (const line of error.details) process.stderr.write(`  ${terminalText(line)}\n`);
    if (process.env.TRANSCRIPT_DOCTOR_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return 2;
  }
}
