import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { slim as slimApi } from '../../src/index.js';
import { runCli } from '../cli/run-cli.js';
import { startFakeProvider, type FakeProvider, type Reply } from '../verify/llm/fake-provider.js';
import { piSession } from './slim-session.js';

const KEY = 'sk-test-summarize-key-0123456789';
/** Results too short to trim: at this target only a compaction makes the session fit (as in slim-pi.test.ts). */
const COMPACTS = ['--target', '8000', '--keep-turns', '1'];

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

function sessionFile(jsonl: string): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-summarize-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, jsonl);
  return { file, dir };
}

async function slim(replies: Reply[], args: string[]) {
  provider = await startFakeProvider(replies);
  const model = ['--model', 'openai/summary-model', '--base-url', `${provider.url}/v1`, '--retries', '0'];
  const result = await runCli(['slim', '--summarize', ...model, ...args], { env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: '' } });
  return { ...result, requests: provider.requests };
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, any>);

describe('slim --summarize against a local model', () => {
  it("writes the model's summary in pi's compaction record, keeps every prompt, and sends no tool output", async () => {
    const { file, dir } = sessionFile(piSession(40, 20).jsonl());
    const out = join(dir, 'slim.jsonl');
    const { code, stderr, stdout, requests } = await slim([{ text: 'The user walked through forty files, one per prompt.' }], [...COMPACTS, '--out', out, '-r', 'json', file]);
    expect(stderr).toBe(`transcript-doctor: sending transcript text to ${provider!.url}/v1 (openai/summary-model) to summarise it; secrets are masked first\n`);
    expect(code).toBe(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/v1/chat/completions');
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const sent = JSON.stringify(requests[0]!.body);
    expect(sent).toContain('USER: prompt 0');
    // Tool output stays home.
    expect(sent).not.toContain('line 0: const value0');
    const compaction = lines(readFileSync(out, 'utf8')).find((line) => line.type === 'compaction')!;
    expect(compaction.summary).toContain('summary-model summarised the earlier portion');
    expect(compaction.summary).toContain('The user walked through forty files, one per prompt.');
    expect(compaction.summary).toMatch(/1\. prompt 0\n/);
    const report = JSON.parse(stdout).files[0];
    expect(report.slim.fits).toBe(true);
    expect(report.slim.strategies.map((s: { strategy: string }) => s.strategy)).toContain('compaction');
    expect(stdout + stderr).not.toContain(KEY);
  });

  it('a failed model call is one line, exit 2, and nothing written (in place: the file and no backup)', async () => {
    const jsonl = piSession(40, 20).jsonl();
    const { file, dir } = sessionFile(jsonl);
    // Providers echo a rejected key: it must not reach the output.
    const { code, stderr, stdout, requests } = await slim([{ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } }], [...COMPACTS, '--in-place', file]);
    expect(code).toBe(2);
    expect(requests).toHaveLength(1);
    const errors = stderr.split('\n').filter((line) => line !== '' && !line.includes('sending transcript text'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^transcript-doctor: .*session\.jsonl: --summarize: openai\/summary-model: .*401.*; nothing was written$/);
    expect(stdout + stderr).not.toContain(KEY);
    expect(readFileSync(file, 'utf8')).toBe(jsonl);
    expect(readdirSync(dir)).toEqual(['session.jsonl']);
  });

  it('asks nothing when no compaction is needed, nor on --dry-run', async () => {
    const trimmed = sessionFile(piSession(8).jsonl());
    const out = join(trimmed.dir, 'slim.jsonl');
    const fits = await slim([], ['--target', '150000', '--out', out, trimmed.file]);
    expect(fits.code).toBe(0);
    expect(fits.requests).toHaveLength(0);
    expect(existsSync(out)).toBe(true);
    await provider!.close();
    provider = undefined;
    const big = sessionFile(piSession(40, 20).jsonl());
    const dry = await slim([], [...COMPACTS, '--dry-run', big.file]);
    expect(dry.code).toBe(0);
    expect(dry.requests).toHaveLength(0);
    expect(dry.stderr).toContain('--summarize asks no model with --dry-run');
  });

  it('refuses the model options without --summarize, and --summarize without a model', async () => {
    const { file } = sessionFile(piSession(2).jsonl());
    const stray = await runCli(['slim', '--dry-run', '--model', 'openai/x', file]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toBe('transcript-doctor: --model is for --summarize\n');
    const home = mkdtempSync(join(tmpdir(), 'td-summarize-home-'));
    const none = await runCli(['slim', '--in-place', '--summarize', file], { env: { HOME: home }, cwd: home });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^transcript-doctor: --summarize needs a model: pass --model/);
  });
});

describe('slim({ summarize }) in the library', () => {
  it("writes the model's summary, tells onSend once, and rejects the model options without summarize", async () => {
    provider = await startFakeProvider([{ text: 'Library summary of the earlier turns.' }]);
    const { file, dir } = sessionFile(piSession(40, 20).jsonl());
    const output = join(dir, 'slim.jsonl');
    const sent: string[] = [];
    const key = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    try {
      const report = await slimApi(file, { output, target: { tokens: 8000 }, keepTurns: 1, summarize: true, model: 'openai/summary-model', baseUrl: `${provider.url}/v1`, retries: 0, onSend: (message) => sent.push(message) });
      expect(report.files[0]!.slim?.fits).toBe(true);
    } finally {
      if (key === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = key;
    }
    expect(sent).toHaveLength(1);
    expect(provider.requests).toHaveLength(1);
    expect(lines(readFileSync(output, 'utf8')).find((line) => line.type === 'compaction')!.summary).toContain('Library summary of the earlier turns.');
    await expect(slimApi(file, { dryRun: true, model: 'openai/summary-model' })).rejects.toThrow('--model is for --summarize');
  });
});
