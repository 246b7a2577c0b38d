import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'requests');

describe('requests on the command line', () => {
  it('scan reports each line with its pointer and exits 1; a healthy dataset exits 0; --agent requests is accepted', async () => {
    const broken = await runCli(['scan', '-r', 'json', join(DIR, 'responses-broken.jsonl')]);
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout);
    expect(report.files[0].format).toBe('requests');
    expect(report.files[0].findings.map((f: { line: number; pointer: string }) => `${f.line} ${f.pointer}`)).toEqual(['1 /input/1', '2 /input/1', '3 /input/1']);
    const healthy = await runCli(['scan', '--agent', 'requests', join(DIR, 'gemini-healthy.jsonl')]);
    expect(healthy.code).toBe(0);
    expect(healthy.stderr).toBe('');
  });

  it('repair reads standard input and writes the dataset to standard output, the report to standard error', async () => {
    const input = readFileSync(join(DIR, 'openai-chat-broken.jsonl'));
    const result = await runCli(['repair', '-', '--mode', 'synthetic'], { input });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').slice(0, -1);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(input.toString('utf8').split('\n')[0]);
    expect(result.stderr).toContain('added 2 results');
    expect((await runCli(['scan', '-'], { input: result.stdout })).code).toBe(0);
  });

  it('repair --in-place is final after one run, and --dry-run writes nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-requests-cli-')), 'dataset.jsonl');
    copyFileSync(join(DIR, 'gemini-broken.jsonl'), file);
    const dry = await runCli(['repair', '--dry-run', file]);
    expect(dry.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(DIR, 'gemini-broken.jsonl'), 'utf8'));
    expect((await runCli(['repair', '--in-place', '--no-backup', file])).code).toBe(0);
    const repaired = readFileSync(file, 'utf8');
    expect(repaired).not.toBe(readFileSync(join(DIR, 'gemini-broken.jsonl'), 'utf8'));
    const second = await runCli(['repair', '--in-place', '--no-backup', '-r', 'json', file]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).files[0].changed).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(repaired);
  });

  it('canonicalize has nothing to do in a request file and says why; --check passes', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'td-requests-cli-')), 'out.jsonl');
    const result = await runCli(['canonicalize', join(DIR, 'anthropic-broken.jsonl'), '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to canonicalize for requests');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(DIR, 'anthropic-broken.jsonl'), 'utf8'));
    expect((await runCli(['canonicalize', '--check', join(DIR, 'anthropic-broken.jsonl')])).code).toBe(0);
  });

  it.each([
    ['anthropic', 'Anthropic: messages.1: `tool_use` ids were found without'],
    ['bedrock', 'Bedrock Converse: Expected toolResult blocks at messages.2.content for the following Ids: call_m2'],
    ['vertex', 'Anthropic (Vertex AI): messages.1: `tool_use` ids were found without'],
    ['openai-chat', "OpenAI Chat: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'."],
    ['openai-responses', 'OpenAI Responses: No tool output found for function call call_m2.'],
    ['gemini', 'Gemini: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.'],
    ['mistral', 'Mistral: Not the same number of function calls and responses'],
  ])('scan --provider %s quotes that provider for a dataset’s pairing problems and exits 1', async (provider, missing) => {
    const result = await runCli(['scan', '-r', 'json', '--provider', provider, join(DIR, 'openai-chat-broken.jsonl')]);
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.stdout).files[0].findings as Array<{ rule: string; providerError?: string }>;
    expect(findings.find((finding) => finding.rule === 'missing-tool-result')?.providerError).toContain(missing);
    const name = missing.slice(0, missing.indexOf(':'));
    for (const finding of findings) if (finding.providerError !== undefined) expect(finding.providerError.startsWith(`${name}: `), finding.providerError).toBe(true);
  });

  it('a dataset whose only problem is one id for two calls fails for Anthropic and passes for Gemini, which does not need unique ids', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-requests-cli-')), 'reused.jsonl');
    const call = { id: 'call_A', type: 'function', function: { name: 'read', arguments: '{}' } };
    const line = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_A', content: 'ok' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_A', content: 'ok' }, { role: 'assistant', content: 'Done.' }] };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    const anthropic = await runCli(['scan', '--provider', 'anthropic', file]);
    expect(anthropic.code).toBe(1);
    expect(anthropic.stdout).toContain('Anthropic: messages.3.content.0: `tool_use` ids must be unique');
    const gemini = await runCli(['scan', '--provider', 'gemini', file]);
    expect(gemini.code).toBe(0);
    expect(gemini.stdout).toContain('duplicate-tool-call-id');
    expect(gemini.stdout).not.toContain('Gemini:');
  });

  it('no output shows the number the model gives a Gemini call without an id, in scan or repair', async () => {
    for (const provider of [[], ['--provider', 'anthropic'], ['--provider', 'mistral']]) {
      for (const command of [['scan'], ['scan', '-r', 'json'], ['repair', '--dry-run', '-r', 'json'], ['repair', '--mode', 'synthetic']]) {
        const result = await runCli([...command, ...provider, join(DIR, 'gemini-broken.jsonl')]);
        expect(result.code, result.stderr).not.toBe(2);
        expect(`${result.stdout}${result.stderr}`, command.join(' ')).not.toMatch(/#\d+\.\d+/);
      }
    }
  });
});
