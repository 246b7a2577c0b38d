import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'requests');

describe('requests on the command line', () => {
  it('scan reports each line with its pointer and exits 1; a healthy dataset exits 0; --format requests is accepted', async () => {
    const broken = await runCli(['scan', '-r', 'json', join(DIR, 'responses-broken.jsonl')]);
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout);
    expect(report.files[0].format).toBe('requests');
    expect(report.files[0].findings.map((f: { line: number; pointer: string }) => `${f.line} ${f.pointer}`)).toEqual(['1 /input/1', '2 /input/1', '3 /input/1']);
    const healthy = await runCli(['scan', '--format', 'requests', join(DIR, 'gemini-healthy.jsonl')]);
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
    const result = await runCli(['canonicalize', join(DIR, 'anthropic-broken.jsonl'), '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to canonicalize for requests');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(DIR, 'anthropic-broken.jsonl'), 'utf8'));
    expect((await runCli(['canonicalize', '--check', join(DIR, 'anthropic-broken.jsonl')])).code).toBe(0);
  });
});
