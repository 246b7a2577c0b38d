import type { Command } from 'commander';
import { PROVIDER_HELP, withRewriteOptions } from './command-options.js';

/** Adds `slim` to the program: its arguments, options and help; the command itself is in slim.ts, loaded when it runs. */
export function addSlimCommand(program: Command, setExitCode: (code: number) => void): void {
  withRewriteOptions(
    program
      .command('slim')
      .description('Make a session too big to resume fit again: images over a limit, old images and old tool results give way to stubs, least loss first, until the replayed request fits.')
      .option('--target <tokens|N%>', 'the size the replayed request must come under: tokens, or a share of the model\'s context window (default: 60% of the window, and under every other limit)')
      .option('--keep-turns <n>', 'the latest n user turns are never slimmed (default 2); the latest turn is always kept byte for byte')
      .option('--provider <id>', PROVIDER_HELP)
      .option('--summarize', "have a model write a compaction's summary (the model verify talks to; default: a summary written without one)")
      .option('--model <provider/model>', 'with --summarize: the model, e.g. anthropic/claude-haiku-4-5 (default: verify.model in the config, else agents.defaults.verifier.model)')
      .option('--base-url <url>', 'with --summarize: an OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter, LM Studio)')
      .option('--api-key-env <name>', 'with --summarize: environment variable holding the API key (default: ANTHROPIC_API_KEY / OPENAI_API_KEY)')
      .option('--timeout <seconds>', 'with --summarize: per request (default 120)')
      .option('--retries <n>', 'with --summarize: retries on 429 and 5xx, with backoff (default 2)'),
    `
Exit codes: 0 every output fits and is clean, 1 a session still does not fit (or errors remain),
2 usage error, unreadable input, refused write or (with --summarize) a failed model call.

Examples:
  $ transcript-doctor slim --dry-run latest
  $ transcript-doctor slim --in-place <id>
  $ transcript-doctor slim --target 60% --out slim.jsonl <id>
  $ transcript-doctor slim --in-place --summarize --model anthropic/claude-haiku-4-5 <id>`,
  ).action(async (paths: string[], options) => {
    setExitCode(await (await import('./slim.js')).slimCommand(paths, options));
  });
}
