import { copyFileSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/** Where each agent keeps a session in a home, and a fixture in its format to put there. */
const SESSIONS: ReadonlyArray<[string, string]> = [
  ['.claude/projects/-home-user-project/0b6a8c3e-6a47-4d0c-9a53-5f8f1d0a4c21.jsonl', 'fixtures/claude-code/missing-tool-result.jsonl'],
  ['.codex/sessions/2026/11/26/rollout-2026-11-26T06-17-00-0c9d8e7f-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl', 'fixtures/codex/healthy.jsonl'],
  ['.codex/archived_sessions/rollout-2026-11-20T06-17-00-1c9d8e7f-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl', 'fixtures/codex/missing-tool-result.jsonl'],
  ['.gemini/tmp/project/chats/session-2026-11-26T06-20-8cd1afb9.jsonl', 'fixtures/gemini-cli/missing-tool-result.jsonl'],
  ['.copilot/session-state/5d2e8f1a-3b4c-4d5e-8f9a-0b1c2d3e4f5a/events.jsonl', 'fixtures/copilot-cli/healthy.jsonl'],
  ['.qwen/projects/-home-user-project/chats/6e3f9a2b-4c5d-4e6f-9a0b-1c2d3e4f5a6b.jsonl', 'fixtures/qwen-code/healthy.jsonl'],
  ['.openclaw/agents/main/sessions/7f4a0b3c-5d6e-4f7a-8b1c-2d3e4f5a6b7c.jsonl', 'fixtures/pi/missing-tool-result.jsonl'],
  ['.pi/agent/sessions/--home-user-project--/2026-11-26T06-17-00-000Z_8a5b1c4d-6e7f-4a8b-9c2d-3e4f5a6b7c8d.jsonl', 'fixtures/pi/healthy.jsonl'],
];

/** A copied home: every agent's sessions in its hidden folder, and hidden places that are no agent's. */
function copiedHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'td-home-')));
  const put = (relative: string, fixture: string) => {
    mkdirSync(dirname(join(home, relative)), { recursive: true });
    copyFileSync(fixture, join(home, relative));
  };
  for (const [relative, fixture] of SESSIONS) put(relative, fixture);
  put('.cache/tool/stray.jsonl', 'fixtures/pi/healthy.jsonl');
  put('.claude/projects/-home-user-project/.draft.jsonl', 'fixtures/pi/healthy.jsonl');
  put('notes/plain.jsonl', 'fixtures/pi/healthy.jsonl');
  return home;
}

/** The agents' variables cleared, so each agent's folders are the ones under HOME. */
function homeEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: home };
  for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'COPILOT_HOME', 'QWEN_HOME', 'QWEN_RUNTIME_DIR', 'OPENCLAW_STATE_DIR', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR']) env[name] = '';
  return env;
}

async function scannedFiles(args: string[], home: string): Promise<string[]> {
  const result = await runCli(['scan', '-f', 'json', '--exit-zero', ...args], { env: homeEnv(home), cwd: home });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { files: Array<{ path: string }> }).files.map((file) => join(home, file.path.startsWith('/') ? file.path.slice(home.length + 1) : file.path)).sort();
}

describe('a folder search enters the agents’ hidden folders', () => {
  it('scan of a copied home reports every session the no-argument scan finds there, and nothing from other hidden places', async () => {
    const home = copiedHome();
    const everyAgent = await scannedFiles([], home);
    expect(everyAgent).toEqual(SESSIONS.map(([relative]) => join(home, relative)).sort());
    const folder = await scannedFiles([home], home);
    expect(folder).toEqual([...everyAgent, join(home, 'notes/plain.jsonl')].sort());
  });

  it('--hidden takes every hidden folder and file too, in scan, repair and explain', async () => {
    const home = copiedHome();
    const all = await scannedFiles(['--hidden', home], home);
    expect(all).toContain(join(home, '.cache/tool/stray.jsonl'));
    expect(all).toContain(join(home, '.claude/projects/-home-user-project/.draft.jsonl'));
    expect(all).toHaveLength(SESSIONS.length + 3);

    const dry = await runCli(['repair', '--dry-run', '--hidden', home], { env: homeEnv(home), cwd: home });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`of ${SESSIONS.length + 3} files`);
    const plain = await runCli(['repair', '--dry-run', home], { env: homeEnv(home), cwd: home });
    expect(plain.stdout).toContain('.openclaw/agents/main/sessions/7f4a0b3c-5d6e-4f7a-8b1c-2d3e4f5a6b7c.jsonl');
    expect(plain.stdout).toContain(`of ${SESSIONS.length + 1} files`);

    const explained = await runCli(['explain', '-r', 'json', 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01tZGVPXuYgjzJCO3MLwqKyv', home], { env: homeEnv(home), cwd: home });
    expect(explained.code).toBe(0);
    expect((JSON.parse(explained.stdout) as { session: { path: string } }).session.path).toContain('.openclaw/agents/main/sessions/');
  });
});
