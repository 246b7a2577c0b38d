import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeProvider } from '../verify/llm/fake-provider.js';
import { ROOT, runCli } from './run-cli.js';

/** Every file a run writes is checked against what it reads before any work: nothing is rewritten, backed up or sent. */
const BROKEN = join(ROOT, 'fixtures', 'pi', 'tail-tool-call.jsonl');
const ORIGINAL = readFileSync(BROKEN);

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-outputs-'));
  copyFileSync(BROKEN, join(dir, 's.jsonl'));
  mkdirSync(join(dir, 'a'));
  linkSync(join(dir, 's.jsonl'), join(dir, 'hard.jsonl'));
  symlinkSync(join(dir, 's.jsonl'), join(dir, 'soft.jsonl'));
  return dir;
}

/** The same file by another spelling, a hard link and a symlink. */
const ALIASES = ['s.jsonl', './a/../s.jsonl', 'hard.jsonl', 'soft.jsonl'];

function untouched(dir: string): void {
  expect(readFileSync(join(dir, 's.jsonl'))).toEqual(ORIGINAL);
  expect(readdirSync(dir).sort()).toEqual(['a', 'hard.jsonl', 's.jsonl', 'soft.jsonl']);
}

describe('outputs that are inputs are refused before any work', () => {
  it.each(ALIASES)('scan --write-baseline %s', async (alias) => {
    const dir = folder();
    const result = await runCli(['scan', 's.jsonl', '--write-baseline', alias], { cwd: dir });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: `transcript-doctor: --write-baseline ${alias} is the input s.jsonl; refusing before anything is read or written\n` });
    untouched(dir);
  });

  it.each(ALIASES)('repair --in-place --output-file %s: no rewrite, no backup', async (alias) => {
    const dir = folder();
    const result = await runCli(['repair', '--in-place', 's.jsonl', '-r', 'json', '--output-file', alias], { cwd: dir });
    expect(result).toMatchObject({ code: 2, stderr: `transcript-doctor: --output-file ${alias} is the input s.jsonl; refusing before anything is read or written\n` });
    untouched(dir);
  });

  it('repair --out and canonicalize write no transcript when the report would go over the input', async () => {
    const dir = folder();
    expect((await runCli(['repair', 's.jsonl', '--out', 'fixed.jsonl', '--output-file', 'hard.jsonl', '-r', 'json'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['canonicalize', '--check', 's.jsonl', '--output-file', 'soft.jsonl', '-r', 'json'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['canonicalize', '--in-place', 's.jsonl', '--output-file', './a/../s.jsonl', '-r', 'json'], { cwd: dir })).code).toBe(2);
    untouched(dir);
  });

  it('repair with the transcript on standard output appended to the input (>> input) is refused', async () => {
    const dir = folder();
    const fd = openSync(join(dir, 's.jsonl'), 'a');
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'repair', 's.jsonl'], { cwd: dir, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    expect(run.status).toBe(2);
    expect(run.stderr.toString()).toBe('transcript-doctor: standard output is the input s.jsonl; refusing before anything is read or written\n');
    untouched(dir);
  });

  it('merge-reports -o onto one of its reports', async () => {
    const dir = folder();
    expect((await runCli(['scan', 's.jsonl', '-r', 'json', '-o', 'r1.json'], { cwd: dir })).code).toBe(1);
    const report = readFileSync(join(dir, 'r1.json'));
    const result = await runCli(['merge-reports', 'r1.json', '-o', './a/../r1.json'], { cwd: dir });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'transcript-doctor: --output-file ./a/../r1.json is the input r1.json; refusing before anything is read or written\n' });
    expect(readFileSync(join(dir, 'r1.json'))).toEqual(report);
  });

  it('verify -o onto the input sends nothing to the judge', async () => {
    const dir = folder();
    const server = await startFakeProvider(() => ({ text: 'PASS' }));
    try {
      const args = ['verify', '--all', '--no-cache', '--model', 'openai/x', '--base-url', server.url, 's.jsonl', '-o', 'hard.jsonl'];
      const result = await runCli(args, { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-000' } });
      expect(result).toMatchObject({ code: 2, stderr: 'transcript-doctor: --output-file hard.jsonl is the input s.jsonl; refusing before anything is read or written\n' });
      expect(server.requests).toHaveLength(0);
      untouched(dir);
    } finally {
      await server.close();
    }
  });
});
