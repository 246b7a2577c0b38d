import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/** 130,000 lines of base64 and a binary blob: a finding or more on every line, which once overflowed the stack of the default reporter. */
function floods(): { garbage: string; binary: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-floods-'));
  const garbage = join(dir, 'garbage.jsonl');
  const line = `${'QUJDRA'.repeat(10)}\n`;
  writeFileSync(garbage, line.repeat(130_000));
  const binary = join(dir, 'binary.jsonl');
  const bytes = Buffer.alloc(2_000_000);
  // A fixed generator: every byte value, NUL and newline included, with no real transcript in it.
  let state = 12345;
  for (let i = 0; i < bytes.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  writeFileSync(binary, bytes);
  return { garbage, binary };
}

const SCREENFUL = 24;

describe('a file with a finding on every line', () => {
  const { garbage, binary } = floods();

  it('scan with the default reporter exits 1 with a screenful that still counts every finding', async () => {
    const result = await runCli(['scan', garbage]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').length).toBeLessThan(SCREENFUL);
    expect(result.stdout).toContain('… and 129997 more invalid-json in this file');
    expect(result.stdout).toMatch(/✖ 130001 problems \(130001 errors, 0 warnings\) in 1 of 1 file\./);
  });

  it('a binary file too, in scan and in repair --dry-run', async () => {
    for (const args of [['scan', binary], ['repair', '--dry-run', binary]]) {
      const result = await runCli(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n').length).toBeLessThan(SCREENFUL);
      expect(result.stdout).toMatch(/… and \d+ more invalid-json in this file/);
    }
  });

  it('repair --dry-run of the garbage file lists what is left, folded', async () => {
    const result = await runCli(['repair', '--dry-run', garbage]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').length).toBeLessThan(SCREENFUL);
    expect(result.stdout).toContain('… and 129997 more invalid-json in this file');
    expect(result.stdout).toContain('✖ 130001 problems left (130001 errors, 0 warnings) in 1 of 1 file.');
  });

  it('--all-findings lists every one', async () => {
    const result = await runCli(['scan', '--all-findings', garbage]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter((line) => line.endsWith('  invalid-json'))).toHaveLength(130_000);
    expect(result.stdout).not.toContain('more invalid-json');
  });

  it('--statistics counts per rule, in scan and repair --dry-run', async () => {
    for (const args of [['scan', '--statistics', garbage], ['repair', '--dry-run', '--statistics', garbage]]) {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^ count {2}rule {12}severity {2}fix\n130000 {2}invalid-json {4}error {5}safe\n {5}1 {2}invalid-header {2}error {5}safe\n\n/);
    }
  });

  it('machine-readable reporters are never folded', async () => {
    const result = await runCli(['scan', '-r', 'ndjson', garbage]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter((line) => line.includes('"rule":"invalid-json"'))).toHaveLength(130_000);
  });
});

describe('help', () => {
  it('documents --all-findings and --statistics in scan, repair, canonicalize and verify', async () => {
    for (const command of ['scan', 'repair', 'canonicalize', 'verify']) {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/--all-findings +stylish: list every finding/);
      expect(result.stdout).toMatch(/--statistics +stylish: print a count of findings per rule/);
    }
  });
});
