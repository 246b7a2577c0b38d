import type { AgentName, SessionAgent } from './agent.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { gemini } from './gemini.js';
import { openclaw } from './openclaw.js';
import { pi } from './pi.js';
import { qwen } from './qwen.js';

export type { AgentName, SessionAgent, SessionFile, ResumeRequest, Env } from './agent.js';

/** Every agent whose sessions we can find, in the order session folders are listed and searched. */
export const sessionAgents: readonly SessionAgent[] = [openclaw, pi, claudeCode, codex, gemini, copilot, qwen];

export const AGENT_NAMES: readonly AgentName[] = sessionAgents.map((agent) => agent.name);

export function agentNamed(name: string): SessionAgent | undefined {
  return sessionAgents.find((agent) => agent.name === name);
}

/** The agent a command starts, by the command's file name (`/usr/local/bin/claude`, `codex.cmd`). */
export function agentOfCommand(command: string): SessionAgent | undefined {
  const name = command.split(/[/\\]/).pop()!.replace(/\.(exe|cmd|bat|js|mjs|cjs)$/i, '');
  return sessionAgents.find((agent) => agent.commands.includes(name));
}
