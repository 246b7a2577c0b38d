/**
 * An environment in which every agent's sessions are under `home`: the variables that move an
 * agent's folder elsewhere are emptied, so the machine running the tests cannot leak into them.
 */
export function agentEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const moved = ['OPENCLAW_STATE_DIR', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'COPILOT_HOME', 'QWEN_HOME', 'QWEN_RUNTIME_DIR', 'OPENCLAW_TOOL_GUARD_ABORT_MODE'];
  return { HOME: home, ...Object.fromEntries(moved.map((name) => [name, ''])), ...extra };
}
