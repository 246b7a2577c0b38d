import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex');
const ROLLOUT = 'rollout-2026-03-02T09-15-00-5d1c2b3a-7e8f-4a90-b1c2-d3e4f5a6b7c8.jsonl';

/** A Codex home with one rollout filed by date, as Codex files them. */
function codexHome(fixture: string, folder = join('sessions', '2026', '03', '02')): string {
  const home = mkdtempSync(join(tmpdir(), 'td-codex-home-'));
  mkdirSync(join(home, folder), { recursive: true });
  copyFileSync(join(DIR, fixture), join(home, folder, ROLLOUT));
  return home;
}

describe('Codex on the command line', () => {
  it('scan with no paths searches ~/.codex/sessions, date folders included', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    const codex = join(home, '.codex');
    mkdirSync(join(codex, 'sessions', '2026', '03', '02'), { recursive: true });
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(codex, 'sessions', '2026', '03', '02', ROLLOUT));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home, CODEX_HOME: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Searching ${join(codex, 'sessions')}`);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((file: { format: string }) => file.format)).toEqual(['codex']);
    expect(report.files[0].findings.map((f: { line: number; rule: string }) => `${f.line} ${f.rule}`)).toEqual(['7 missing-tool-result']);
  });

  it('follows $CODEX_HOME, and scans its archived_sessions too', async () => {
    const home = codexHome('healthy.jsonl', 'archived_sessions');
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: mkdtempSync(join(tmpdir(), 'td-home-')), CODEX_HOME: home } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(join(home, 'archived_sessions'));
    expect(JSON.parse(result.stdout).files).toHaveLength(1);
  });

  it('--agent codex is accepted, and a healthy rollout exits 0', async () => {
    const result = await runCli(['scan', '--agent', 'codex', join(DIR, 'healthy.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('canonicalize finds nothing to do in a rollout and exits 0', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'td-codex-')), 'out.jsonl');
    const result = await runCli(['canonicalize', join(DIR, 'healthy.jsonl'), '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to canonicalize for codex: a rollout has one item shape for each tool call and output');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(DIR, 'healthy.jsonl'), 'utf8'));
    expect((await runCli(['canonicalize', '--check', join(DIR, 'missing-tool-result.jsonl')])).code).toBe(0);
  });

  it('repair --in-place fixes an interrupted rollout, and a second run changes nothing', async () => {
    const home = codexHome('missing-tool-result.jsonl');
    const file = join(home, 'sessions', '2026', '03', '02', ROLLOUT);
    const first = await runCli(['repair', '--in-place', '--no-backup', '--mode', 'synthetic', file]);
    expect(first.code).toBe(0);
    const repaired = readFileSync(file, 'utf8');
    expect(repaired).toContain('"type":"function_call_output","call_id":"call_Vb7Kq2Lm9Xp4Rt6Ws1Yz3Na8","output":"aborted"');
    expect((await runCli(['scan', file])).code).toBe(0);
    const second = await runCli(['repair', '--in-place', '--no-backup', '--mode', 'synthetic', file]);
    expect(second.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(repaired);
  });
});
