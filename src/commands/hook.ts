import { HOOK_EVENTS, settingsAgent, settingsAgents, type HookEvent } from '../hooks/agents.js';
import { readHookInput } from '../hooks/hook-input.js';
import { runHook } from '../hooks/run-hook.js';
import { terminalText } from '../report/terminal-text.js';
import { resolveMode } from './repair.js';

/**
 * `transcript-doctor hook <event> --agent <name>`, the command `hooks install` writes into an
 * agent's settings. It must never stand in the agent's way: whatever goes wrong is one line on
 * standard error and exit 0 (an exit 2 is a blocking error to Claude Code and Codex).
 */
export async function hookCommand(event: string, options: { agent?: string; mode?: string }): Promise<number> {
  // An agent that stops reading our messages (a closed pipe) must not turn the hook into a failure.
  process.stderr.on('error', () => {});
  try {
    if (!HOOK_EVENTS.includes(event as HookEvent)) throw new Error(`unknown hook event "${event}" (choose from: ${HOOK_EVENTS.join(', ')})`);
    const agent = settingsAgent(options.agent ?? '');
    if (agent === undefined) throw new Error(`--agent must be one of ${settingsAgents().map((known) => known.name).join(', ')}`);
    const mode = resolveMode(options.mode);
    const output = await runHook(event as HookEvent, agent, await readHookInput(process.stdin), mode);
    if (output.stdout !== undefined) process.stdout.write(output.stdout);
    if (output.stderr !== undefined) process.stderr.write(terminalText(output.stderr.trimEnd()) + '\n');
  } catch (error) {
    process.stderr.write(`transcript-doctor hook: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
  }
  return 0;
}
