import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules/index.js';
import { runCli } from './run-cli.js';

describe('transcript-doctor rules', () => {
  it('lists every rule with category, severity, fix and one line', async () => {
    const result = await runCli(['rules']);
    expect(result.code).toBe(0);
    for (const rule of rules) expect(result.stdout).toMatch(new RegExp(`^${rule.meta.id} +${rule.meta.category} +${rule.meta.severity} `, 'm'));
    expect(result.stdout).toMatch(/^missing-tool-result +pairing +error +unsafe +A tool call has no result\.\norphan-tool-result /m);
    expect(result.stdout).toMatch(/^lost-logical-parent +structure +\w+ +- +A compaction boundary continues a\n {57}conversation that is not in the file\.\n/m);
    expect(result.stdout).toMatch(/^tool-call-id-format +contract +error +safe +.*\n(?: {57}.*\n)* {2}providers: anthropic:C, bedrock:D, vertex:C, openai-chat:C, openai-responses:C, mistral:C\n/m);
  });

  it('fits 100 columns, every description whole (wrapped, not cut)', async () => {
    const { stdout } = await runCli(['rules']);
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    const joined = stdout.replace(/\n {57}/g, ' ');
    for (const rule of rules) expect(joined).toContain(`  ${rule.meta.description}`);
  });

  it('shows one rule’s documentation', async () => {
    const result = await runCli(['rules', 'result-for-failed-turn']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# result-for-failed-turn\n/);
    for (const section of ['## What it does', '## Why is this bad?', '## Fix']) expect(result.stdout).toContain(section);
  });

  it('an unknown rule is a usage error', async () => {
    const result = await runCli(['rules', 'no-such-rule']);
    expect(result).toMatchObject({ code: 2, stderr: 'transcript-doctor: unknown rule "no-such-rule" (transcript-doctor rules lists them)\n' });
  });
});

describe('scan exit policy', () => {
  const LEGACY = 'fixtures/pi/legacy-shapes.jsonl'; // 3 warnings, no error
  it('--max-warnings fails above the limit only', async () => {
    expect((await runCli(['scan', LEGACY, '--max-warnings', '2'])).code).toBe(1);
    expect((await runCli(['scan', LEGACY, '--max-warnings', '3'])).code).toBe(0);
  });
  it('--exit-zero passes even with errors, but not usage errors', async () => {
    expect((await runCli(['scan', 'fixtures/demo', '--exit-zero'])).code).toBe(0);
    expect((await runCli(['scan', 'missing.jsonl', '--exit-zero'])).code).toBe(2);
  });
  it('a bad --max-warnings is a usage error before any work', async () => {
    const result = await runCli(['scan', LEGACY, '--max-warnings', 'many']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
  });
});
