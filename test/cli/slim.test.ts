import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { piSession } from '../slim/slim-session.js';
import { runCli } from './run-cli.js';

function sessionFile(jsonl: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'td-slim-cli-')), 'session.jsonl');
  writeFileSync(file, jsonl);
  return file;
}

describe('transcript-doctor slim', () => {
  it('--in-place slims with a backup, and restore puts the session back', async () => {
    const jsonl = piSession(8).jsonl();
    const file = sessionFile(jsonl);
    const slimmed = await runCli(['slim', '--in-place', '--target', '150000', '--no-color', file]);
    expect(slimmed.code).toBe(0);
    expect(slimmed.stdout).toMatch(/slimmed: .*\(backup: .*session\.jsonl\.bak-/);
    expect(slimmed.stdout).toMatch(/older tool results: \d+ texts trimmed/);
    expect(readFileSync(file, 'utf8').length).toBeLessThan(jsonl.length);
    const restored = await runCli(['restore', file]);
    expect(restored.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(jsonl);
  });

  it('-r json reports each strategy with what it saved, before and after', async () => {
    const file = sessionFile(piSession(8).jsonl());
    const { code, stdout } = await runCli(['slim', '--dry-run', '--target', '150000', '-r', 'json', file]);
    expect(code).toBe(0);
    const slim = JSON.parse(stdout).files[0].slim;
    expect(slim.target.tokens).toBe(150000);
    expect(slim.fits).toBe(true);
    expect(slim.after.high).toBeLessThanOrEqual(150000);
    expect(slim.before.high).toBeGreaterThan(150000);
    const results = slim.strategies.find((s: { strategy: string }) => s.strategy === 'old-results');
    expect(results.savedBytes).toBeGreaterThan(0);
    expect(results.savedTokens).toBeGreaterThan(0);
  });

  it('--diff shows the trimmed lines and writes nothing', async () => {
    const jsonl = piSession(8).jsonl();
    const file = sessionFile(jsonl);
    const { code, stdout } = await runCli(['slim', '--diff', '--target', '150000', file]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^\+.*transcript-doctor slim cut/m);
    expect(readFileSync(file, 'utf8')).toBe(jsonl);
  });

  it.each([['--target', 'lots'], ['--target', '0%'], ['--keep-turns', '-1']])('refuses %s %s with one line and exit 2', async (flag, value) => {
    const file = sessionFile(piSession(1, 5).jsonl());
    const { code, stderr } = await runCli(['slim', '--dry-run', flag, value, file]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^transcript-doctor: ${flag}`));
  });
});
