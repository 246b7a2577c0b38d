import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { startFakeProvider, type FakeProvider } from '../../verify/llm/fake-provider.js';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('verify on a Qwen Code session', () => {
  it('judges the final answers of the replayed chain against their prompts, not thoughts or the rewound turn (line 11)', async () => {
    server = await startFakeProvider(() => ({ text: 'Goal: met.\nPASS' }));
    const cache = mkdtempSync(join(tmpdir(), 'td-verify-cache-'));
    // One request at a time: the prompts are read in the order of the turns they judge.
    const { code, stdout } = await runCli(['verify', '--all', '--concurrency', '1', '--base-url', `${server.url}/v1`, '--model', 'openai/gpt-4.1', '--cache-dir', cache, '-r', 'json', 'fixtures/qwen-code/healthy.jsonl'], {
      env: { OPENAI_API_KEY: 'sk-test-openai-000' },
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { files: Array<{ format: string; verdicts: Array<{ line: number; verdict: string }> }> };
    expect(report.files[0]!.format).toBe('qwen-code');
    expect(report.files[0]!.verdicts.filter((v) => v.verdict !== 'SKIPPED').map((v) => `${v.line} ${v.verdict}`)).toEqual(['7 PASS', '13 PASS', '19 PASS']);
    // A request retried after a timeout on a loaded machine is sent again as it was: counted once.
    const prompts = [...new Set(server.requests.map((request) => (request.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')!.content))];
    expect(prompts[2]).toContain('Run the tests.');
    expect(prompts[2]).toContain('All tests pass.');
    expect(prompts[2]).not.toContain('Running them.');
  });
});
