import { HOOK_EVENTS, settingsAgent, settingsAgents, type HookEvent } from '../hooks/agents.js';
import { runHook } from '../hooks/run-hook.js';
import { terminalText } from '../report/terminal-text.js';
import { resolveMode } from './repair.js';

/** A hook's input is a small JSON object; more than this is not one. */
const MAX_INPUT = 1 << 20;
/** An agent closes our standard input once it has written; one that never does must not keep its hook waiting. */
const INPUT_WAIT_MS = 10_000;

/**
 * `transcript-doctor hook <event> --agent <name>`, the command `hooks install` writes into an
 * agent's settings. It must never stand in the agent's way: whatever goes wrong is one line on
 * standard error and exit 0 (an exit 2 is a blocking error to Claude Code and Codex).
 */
export async function hookCommand(event: string, options: { agent?: string; mode?: string }): Promise<number> {
  try {
    if (!HOOK_EVENTS.includes(event as HookEvent)) throw new Error(`unknown hook event "${event}" (choose from: ${HOOK_EVENTS.join(', ')})`);
    const agent = settingsAgent(options.agent ?? '');
    if (agent === undefined) throw new Error(`--agent must be one of ${settingsAgents.map((known) => known.name).join(', ')}`);
    const mode = resolveMode(options.mode);
    const input = parseInput(await readInput());
    const output = await runHook(event as HookEvent, agent, input, mode);
    if (output.stdout !== undefined) process.stdout.write(output.stdout);
    if (output.stderr !== undefined) process.stderr.write(terminalText(output.stderr.trimEnd()) + '\n');
  } catch (error) {
    process.stderr.write(`transcript-doctor hook: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
  }
  return 0;
}

function parseInput(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new Error('no hook input on standard input (agents send a JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the hook input on standard input is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the hook input on standard input is not a JSON object');
  return value as Record<string, unknown>;
}

/** Standard input as text; empty on a terminal (run by hand), when it never ends, or when it is too large. */
function readInput(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (text: string) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data');
      process.stdin.destroy();
      resolve(text);
    };
    const timer = setTimeout(() => finish(''), INPUT_WAIT_MS);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_INPUT) finish('');
      else chunks.push(chunk);
    });
    process.stdin.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => finish(''));
  });
}
