import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli/run-cli.js';

/** A home whose ~/.qwen holds one session where Qwen Code files it. */
function qwenHome(fixture: string): { env: NodeJS.ProcessEnv; file: string } {
  const home = mkdtempSync(join(tmpdir(), 'td-explain-qwen-'));
  const chats = join(home, '.qwen', 'projects', '-work-demo-app', 'chats');
  mkdirSync(chats, { recursive: true });
  const file = join(chats, '7c3e9a52-4b1d-4f6a-9e08-2d5b71c4a9e3.jsonl');
  copyFileSync(join(ROOT, 'fixtures', 'qwen-code', fixture), file);
  return { env: { HOME: home, QWEN_HOME: '', QWEN_RUNTIME_DIR: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '' }, file };
}

describe('explain with the texts Qwen Code users paste', () => {
  it("the OpenAI-compatible endpoint's 400 (QwenLM/qwen-code#199) leads to the session under ~/.qwen, the call's line and the fix", async () => {
    const { env, file } = qwenHome('missing-tool-result.jsonl');
    const text = "400 Invalid request: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1_0_0";
    const result = await runCli(['explain', text, '-r', 'json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.error.ref).toBe('qwen-tool-calls-need-responses');
    expect(report.session).toMatchObject({ path: file, line: 3, rule: 'missing-tool-result' });
    expect(report.session.fix).toContain('repair');
  });

  it('the gap Qwen Code logs on resume is the unknown-parent rule', async () => {
    const { env } = qwenHome('unknown-parent.jsonl');
    const result = await runCli(['explain', 'loadSession: detected 1 unrecoverable history gap(s) for session 7c3e9a52: child=a missingParent=b', '-r', 'json'], { env });
    const report = JSON.parse(result.stdout);
    expect(report.error.ref).toBe('qwen-history-gap');
    expect(report.error.rules).toEqual(['unknown-parent']);
  });
});
