import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { startFakeProvider, type FakeProvider } from '../../verify/llm/fake-provider.js';

const HEALTHY = 'fixtures/codex/healthy.jsonl';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The user message of each judge request (OpenAI protocol). */
function asked(provider: FakeProvider): string[] {
  return provider.requests.map((request) => (request.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')!.content);
}

describe('verify on a Codex rollout', () => {
  it('judges the final answer of each turn against the user’s prompt, not commentary, reasoning, calls or injected context', async () => {
    server = await startFakeProvider(() => ({ text: 'Goal: met.\nPASS' }));
    const cache = mkdtempSync(join(tmpdir(), 'td-verify-cache-'));
    // One request at a time: the prompts are read in the order of the turns they judge.
    const { code, stdout } = await runCli(['verify', '--all', '--concurrency', '1', '--base-url', `${server.url}/v1`, '--model', 'openai/gpt-4.1', '--cache-dir', cache, '-r', 'json', HEALTHY], {
      env: { OPENAI_API_KEY: 'sk-test-openai-000' },
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { files: Array<{ format: string; verdicts: Array<{ line: number; verdict: string; feedback: string | null }> }> };
    expect(report.files[0]!.format).toBe('codex');
    const judged = report.files[0]!.verdicts.filter((v) => v.verdict !== 'SKIPPED').map((v) => `${v.line} ${v.verdict}`);
    expect(judged).toEqual(['24 PASS', '35 PASS']);
    const prompts = asked(server);
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toContain('Add a --verbose flag to the CLI and run the tests.');
    expect(prompts[0]).toContain('Added `--verbose` next to `--quiet`; all 12 tests pass.');
    expect(prompts[1]).toContain('Document the flag in the README.');
    expect(prompts[1]).toContain('The README now lists `--verbose` under Options.');
    for (const prompt of prompts) expect(prompt).not.toMatch(/## User message\s*\n[^\n]*<environment_context>/);
  });

  it('passes over a reply the turn went on from, and judges the one it ended with', async () => {
    server = await startFakeProvider(() => ({ text: 'PASS' }));
    const cache = mkdtempSync(join(tmpdir(), 'td-verify-cache-'));
    const lines = [
      { timestamp: '2026-03-02T09:15:00.000Z', type: 'session_meta', payload: { id: '5d1c2b3a-7e8f-4a90-b1c2-d3e4f5a6b7c8', timestamp: '2026-03-02T09:15:00.000Z', cwd: '/workspace/demo-app', originator: 'codex_cli_rs', cli_version: '0.63.0' } },
      { timestamp: '2026-03-02T09:15:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Is the build done?' }] } },
      { timestamp: '2026-03-02T09:15:02.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking whether the build is done.' }], phase: 'commentary' } },
      { timestamp: '2026-03-02T09:15:03.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls dist"}', call_id: 'call_a' } },
      { timestamp: '2026-03-02T09:15:04.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_a', output: 'index.js' } },
      { timestamp: '2026-03-02T09:15:05.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Yes, the build is done.' }], phase: 'final_answer' } },
    ];
    const { code, stdout } = await runCli(['verify', '--base-url', `${server.url}/v1`, '--model', 'openai/gpt-4.1', '--cache-dir', cache, '-r', 'json', '-'], {
      env: { OPENAI_API_KEY: 'sk-test-openai-000' },
      input: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    });
    expect(code).toBe(0);
    const verdicts = (JSON.parse(stdout) as { files: Array<{ verdicts: Array<{ line: number; verdict: string; feedback: string | null }> }> }).files[0]!.verdicts;
    expect(verdicts.map((v) => `${v.line} ${v.verdict}`)).toEqual(['3 SKIPPED', '4 SKIPPED', '6 PASS']);
    expect(verdicts[0]!.feedback).toBe('the turn went on after it, not its final answer');
    expect(asked(server)).toHaveLength(1);
  });
});
