import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

/** A project folder with a few fixtures and, optionally, a config. */
function project(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-project-'));
  mkdirSync(join(dir, 'sessions', 'archive'), { recursive: true });
  copyFileSync(join(ROOT, 'fixtures/pi/missing-tool-result.jsonl'), join(dir, 'sessions', 'a.jsonl'));
  copyFileSync(join(ROOT, 'fixtures/pi/empty-text-block.jsonl'), join(dir, 'sessions', 'b.jsonl'));
  copyFileSync(join(ROOT, 'fixtures/pi/orphan-tool-result.jsonl'), join(dir, 'sessions', 'archive', 'old.jsonl'));
  if (config !== undefined) writeFileSync(join(dir, 'transcript-doctor.config.json'), JSON.stringify(config));
  return dir;
}

const rulesOf = (stdout: string) => JSON.parse(stdout).files.flatMap((f: { findings: Array<{ rule: string; severity: string }> }) => f.findings.map((x) => `${x.rule}:${x.severity}`));

describe('project config', () => {
  it('is found upwards: severities, off, and ignores apply', async () => {
    const dir = project({ rules: { 'missing-tool-result': 'warning', 'empty-text-block': 'off' }, ignores: ['sessions/archive/**'] });
    const result = await runCli(['scan', 'sessions', '-r', 'json'], { cwd: join(dir) });
    expect(rulesOf(result.stdout)).toEqual(['missing-tool-result:warning']);
    expect(result.code).toBe(0);
  });

  it('--config chooses another file', async () => {
    const dir = project();
    const other = join(dir, 'strict.json');
    writeFileSync(other, JSON.stringify({ rules: { 'empty-text-block': 'error' } }));
    const result = await runCli(['scan', 'sessions', '-r', 'json', '--config', other], { cwd: dir });
    expect(rulesOf(result.stdout)).toContain('empty-text-block:error');
  });

  it('a bad key is named in a one-line error, exit 2', async () => {
    for (const [config, message] of [
      [{ rule: {} }, 'unknown key "rule" (known: rules, ignores, verify, provider, keepBackups, size)'],
      [{ rules: { 'no-such': 'off' } }, '"rules" names an unknown rule "no-such"'],
      [{ rules: { 'empty-text-block': 'loud' } }, '"rules.empty-text-block" must be one of off, info, warning, error'],
      [{ verify: { modle: 'x' } }, 'unknown key "verify.modle"'],
      [{ size: { near: 0.9 } }, 'unknown key "size.near" (known: nearWindow)'],
      [{ size: { nearWindow: 80 } }, '"size.nearWindow" must be a number between 0 and 1'],
    ] as const) {
      const dir = project(config);
      const result = await runCli(['scan', 'sessions'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
  });
});

describe('baseline', () => {
  it('records the findings, then reports only new ones', async () => {
    const dir = project();
    const baseline = join(dir, 'baseline.json');
    const first = await runCli(['scan', 'sessions', '--write-baseline', baseline, '-r', 'json'], { cwd: dir });
    expect(first.code).toBe(1);
    const again = await runCli(['scan', 'sessions', '--baseline', baseline, '-r', 'json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(rulesOf(again.stdout)).toEqual([]);
    copyFileSync(join(ROOT, 'fixtures/pi/displaced-tool-result.jsonl'), join(dir, 'sessions', 'c.jsonl'));
    const later = await runCli(['scan', 'sessions', '--baseline', baseline, '-r', 'json'], { cwd: dir });
    expect(later.code).toBe(1);
    expect(rulesOf(later.stdout)).toEqual(['displaced-tool-result:error']);
  });

  it('a missing or foreign baseline is a usage error', async () => {
    const dir = project();
    writeFileSync(join(dir, 'x.json'), '{"something":"else"}');
    expect((await runCli(['scan', 'sessions', '--baseline', join(dir, 'missing.json')], { cwd: dir })).code).toBe(2);
    const foreign = await runCli(['scan', 'sessions', '--baseline', join(dir, 'x.json')], { cwd: dir });
    expect(foreign).toMatchObject({ code: 2, stderr: `transcript-doctor: ${join(dir, 'x.json')} is not a transcript-doctor baseline\n` });
  });
});

describe('ignores never hide a named file', () => {
  it('a file named on the command line or in --files-from is checked though an ancestor config ignores everything', async () => {
    const dir = project({ ignores: ['**'] });
    mkdirSync(join(dir, 'deep', 'sub'), { recursive: true });
    copyFileSync(join(ROOT, 'fixtures/pi/missing-tool-result.jsonl'), join(dir, 'deep', 'sub', 's.jsonl'));
    const cwd = join(dir, 'deep', 'sub');
    const named = await runCli(['scan', 's.jsonl', '-r', 'json'], { cwd });
    expect(named.code).toBe(1);
    expect(rulesOf(named.stdout)).toEqual(['missing-tool-result:error']);
    expect((await runCli(['scan', '--files-from', '-', '-r', 'json'], { cwd, input: 's.jsonl\n' })).code).toBe(1);
    expect((await runCli(['repair', '--dry-run', 's.jsonl', '-r', 'json'], { cwd })).code).toBe(0);
  });

  it('a folder search whose every file is ignored says so on standard error', async () => {
    const dir = project({ ignores: ['**'] });
    const result = await runCli(['scan', 'sessions'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('transcript-doctor: every file found (3) is excluded by the project config\'s "ignores" (--print-config shows it); name a file to check it anyway\n');
  });
});

describe('--print-config', () => {
  it('prints the config in effect and where it came from, and checks nothing', async () => {
    const dir = project({ rules: { 'empty-text-block': 'off', 'missing-tool-result': 'warning' }, ignores: ['sessions/archive/**'], provider: 'mistral', size: { nearWindow: 0.9 } });
    for (const command of ['scan', 'repair', 'canonicalize', 'verify']) {
      const result = await runCli([command, '--print-config', 'no-such-file.jsonl'], { cwd: dir });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const printed = JSON.parse(result.stdout);
      expect(printed).toMatchObject({ configFile: join(dir, 'transcript-doctor.config.json'), ignores: [join(dir, 'sessions/archive/**')], provider: 'mistral', size: { nearWindow: 0.9 }, verify: {} });
      expect(printed.rules).toMatchObject({ 'empty-text-block': 'off', 'missing-tool-result': 'warning', 'invalid-json': 'error' });
    }
  });

  it('-c names the file; with none found, configFile is null', async () => {
    const dir = project();
    writeFileSync(join(dir, 'other.json'), '{"rules":{"invalid-json":"info"}}');
    const chosen = JSON.parse((await runCli(['scan', '--print-config', '-c', join(dir, 'other.json')])).stdout);
    expect(chosen).toMatchObject({ configFile: join(dir, 'other.json'), rules: { 'invalid-json': 'info' } });
    // /proc can hold no config file, nor can / on a test machine.
    const none = await runCli(['scan', '--print-config'], { cwd: '/proc' });
    expect(JSON.parse(none.stdout)).toMatchObject({ configFile: null, ignores: [], provider: null, size: { nearWindow: 0.8 } });
  });
});
