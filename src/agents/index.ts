import type { Agent } from './agent.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { geminiCli } from './gemini-cli.js';
import { openclaw } from './openclaw.js';
import { pi } from './pi.js';
import { qwenCode } from './qwen-code.js';

export type { Agent } from './agent.js';

/** The agents this package ships, one module each: a new agent is one row here and its module. */
const BUILT_IN = [openclaw, pi, claudeCode, codex, geminiCli, copilotCli, qwenCode] as const;

/** The name of an agent this package ships. */
export type AgentName = (typeof BUILT_IN)[number]['name'];

const table: Agent[] = [...BUILT_IN];

/** Every agent, in the order session folders are listed and searched: the table the session search, `locate`, `guard` and `hooks` read. */
export const agents: readonly Agent[] = table;

export const AGENT_NAMES: readonly AgentName[] = BUILT_IN.map((agent) => agent.name);

/**
 * Adds an agent to the table (after the ones shipped): how a program that embeds this package,
 * or a test, brings one of its own. Its format is registered with formats/registry's
 * registerFormat. Returns what takes it out again.
 */
export function registerAgent(agent: Agent): () => void {
  if (table.some((known) => known.name === agent.name)) throw new Error(`an agent named ${agent.name} is already registered`);
  table.push(agent);
  return () => {
    const at = table.indexOf(agent);
    if (at !== -1) table.splice(at, 1);
  };
}

/** Whether an agent is one this package ships: a worker thread's fresh module table holds only those. */
export function isBuiltIn(agent: object): boolean {
  return (BUILT_IN as readonly object[]).includes(agent);
}

export function agentNamed(name: string): Agent | undefined {
  return table.find((agent) => agent.name === name);
}

/** The agent a command starts, by the command's file name (`/usr/local/bin/claude`, `codex.cmd`). */
export function agentOfCommand(command: string): Agent | undefined {
  const name = command.split(/[/\\]/).pop()!.replace(/\.(exe|cmd|bat|js|mjs|cjs)$/i, '');
  return table.find((agent) => agent.commands.includes(name));
}
