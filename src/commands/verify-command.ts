import type { Command } from 'commander';
import { collect } from './offered-values.js';
import { agentOption, PRINT_CONFIG_HELP, withListOptions, withReportOptions } from './command-options.js';

/** Adds `verify` to the program: its arguments, options and help; the command itself is in verify.ts, loaded when it runs. */
export function addVerifyCommand(program: Command, setExitCode: (code: number) => void): void {
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
      setExitCode(await (await import('./verify.js')).verifyCommand(paths, options));
    });
}
