import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/model/analysis.js';
import { loadTranscriptFile } from '../../../src/pipeline/load-file.js';
import { withParsedLines } from '../../../src/slim/compaction/lines.js';
import { summarizeWithModel } from '../../../src/slim/compaction/model-summary.js';
import { LlmError } from '../../../src/verify/llm/complete.js';
import type { ModelSpec } from '../../../src/verify/llm/types.js';
import { startFakeProvider, type FakeProvider } from '../../verify/llm/fake-provider.js';
import { compact } from './compact.js';
import { claudeCodeSession } from './sessions.js';

let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const anthropic = (url: string): ModelSpec => ({ provider: 'anthropic', model: 'claude-haiku-4-5', protocol: 'anthropic', baseUrl: url, apiKey: 'test-key' });
const openai = (url: string): ModelSpec => ({ provider: 'openai', model: 'gpt-4.1-mini', protocol: 'openai', baseUrl: `${url}/v1`, apiKey: 'test-key' });

/** A Claude Code session on disk, analysed, with a secret in one prompt. */
async function loaded() {
  const text = claudeCodeSession(4).replace('request 1: fix the parser', 'request 1: fix the parser, the key is sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-BBBBBBAA');
  const file = join(mkdtempSync(join(tmpdir(), 'td-summary-')), 'session.jsonl');
  writeFileSync(file, text);
  const transcript = await loadTranscriptFile(file);
  return { file, transcript, analysis: analyze(transcript) };
}

describe.each([
  ['anthropic', anthropic, '/v1/messages'],
  ['openai', openai, '/v1/chat/completions'],
] as const)('summarizeWithModel (%s)', (_protocol, spec, path) => {
  it("sends the compacted part's words and calls, masked, and keeps every prompt after the model's summary", async () => {
    provider = await startFakeProvider([{ text: 'The user is fixing the parser; files 0 and 1 were edited.' }]);
    const { file, transcript, analysis } = await loaded();
    const summary = await withParsedLines(file, transcript.entries, (read) => summarizeWithModel(analysis, 12, read, { model: spec(provider!.url), timeoutMs: 5000, maxRetries: 0 }));
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.path).toBe(path);
    const sent = JSON.stringify(provider.requests[0]!.body);
    expect(sent).toContain('USER: request 0: fix the parser');
    expect(sent).toContain('TOOL CALL: Edit /workspace/demo/src/changed-0.ts');
    // Tool output never goes, nor what is kept after the cut, nor the secret.
    expect(sent).not.toContain('contents 0');
    expect(sent).not.toContain('request 2');
    expect(sent).not.toContain('sk-ant-api03');
    expect(summary).toContain(spec(provider.url).model);
    expect(summary).toContain('The user is fixing the parser; files 0 and 1 were edited.');
    expect(summary).toContain('1. request 0: fix the parser');
    expect(summary).toContain('2. request 1: fix the parser');
  });
});

describe('summarizeWithModel failures', () => {
  it('rejects with the model error when the server refuses, so slim can fall back or stop', async () => {
    provider = await startFakeProvider([{ status: 401, json: { error: { message: 'invalid x-api-key' } } }]);
    const { file, transcript, analysis } = await loaded();
    await expect(withParsedLines(file, transcript.entries, (read) => summarizeWithModel(analysis, 12, read, { model: anthropic(provider!.url), timeoutMs: 5000, maxRetries: 0 }))).rejects.toBeInstanceOf(LlmError);
  });

  it("writes the model's summary into the agent's own record", async () => {
    provider = await startFakeProvider([{ text: 'Model summary of the first two turns.' }]);
    const { file, transcript, analysis } = await loaded();
    const summary = await withParsedLines(file, transcript.entries, (read) => summarizeWithModel(analysis, 12, read, { model: openai(provider!.url), timeoutMs: 5000, maxRetries: 0 }));
    const { text } = await compact(claudeCodeSession(4), 12, 'session.jsonl', summary);
    const record = text.split('\n').map((line) => (line === '' ? {} : JSON.parse(line))).find((line) => line.isCompactSummary === true);
    expect(record.message.content).toContain('Model summary of the first two turns.');
  });
});
