import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

/** File names that are not UTF-8 (Latin-1 `café`): every route a name takes keeps its bytes. */
const BIN = join(ROOT, 'bin', 'transcript-doctor.js');
const BROKEN = join(ROOT, 'fixtures', 'pi', 'tail-tool-call.jsonl');
const LATIN1 = Buffer.from('caf\xe9.jsonl', 'latin1');
const OTHER = Buffer.from('caf\xe8.jsonl', 'latin1');

/** A folder holding ok.jsonl and two broken sessions whose names differ in one non-UTF-8 byte. */
function folder(): { dir: string; bytes: (name: Buffer) => Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'td-bytes-'));
  mkdirSync(join(dir, 'nu'));
  const bytes = (name: Buffer) => Buffer.concat([Buffer.from(`${dir}/nu/`), name]);
  copyFileSync(BROKEN, join(dir, 'nu', 'ok.jsonl'));
  copyFileSync(BROKEN, bytes(LATIN1));
  copyFileSync(BROKEN, bytes(OTHER));
  return { dir, bytes };
}

/** Runs a shell line in `dir` with $TD set: the only way to put raw bytes on a command line. */
function shell(dir: string, line: string) {
  return spawnSync('sh', ['-c', line], { cwd: dir, env: { ...process.env, TD: BIN, CI: '1' } });
}

const pathsOf = (json: string): string[] => JSON.parse(json).files.map((file: { path: string }) => file.path);

describe('names that are not UTF-8', () => {
  it('are found in a folder, each its own file, and scan -l -0 writes them byte for byte', async () => {
    const { dir } = folder();
    const json = await runCli(['scan', 'nu', '-r', 'json'], { cwd: dir });
    expect(json.stderr).toBe('');
    expect(pathsOf(json.stdout).sort()).toEqual(['nu/caf\uDCE8.jsonl', 'nu/caf\uDCE9.jsonl', 'nu/ok.jsonl']);
    const listed = shell(dir, 'node "$TD" scan nu -l -0');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toEqual(Buffer.concat([Buffer.from('nu/'), OTHER, Buffer.from('\0nu/'), LATIN1, Buffer.from('\0nu/ok.jsonl\0')]));
  });

  it('verify reads the file and its answers through the name (no judge is reached: nothing listens on port 9)', () => {
    const { dir } = folder();
    const run = shell(dir, 'OPENAI_API_KEY=x node "$TD" verify --all --no-cache --retries 0 --model openai/x --base-url http://127.0.0.1:9/v1 "nu/$(printf \'caf\\351.jsonl\')" -r json');
    expect(run.stderr.toString()).not.toMatch(/no such file|cannot read/);
    const [file] = JSON.parse(run.stdout.toString()).files;
    expect(file.path).toBe('nu/caf\uDCE9.jsonl');
    expect(file.verdicts.length).toBeGreaterThan(0);
  });

  it('find -print0 | scan --files-from - -0 checks every file', () => {
    const { dir } = folder();
    const run = shell(dir, 'find nu -name "*.jsonl" -print0 | node "$TD" scan --files-from - -0 -r json');
    expect(run.stderr.toString()).toBe('');
    expect(run.status).toBe(1);
    expect(pathsOf(run.stdout.toString()).sort()).toEqual(['nu/caf\uDCE8.jsonl', 'nu/caf\uDCE9.jsonl', 'nu/ok.jsonl']);
  });

  it('a name on the command line reaches the file (Linux keeps the bytes in /proc/self/cmdline)', () => {
    const { dir } = folder();
    const run = shell(dir, 'node "$TD" scan "nu/$(printf \'caf\\351.jsonl\')" -r json');
    expect(run.stderr.toString()).toBe('');
    expect(pathsOf(run.stdout.toString())).toEqual(['nu/caf\uDCE9.jsonl']);
    const check = shell(dir, 'node "$TD" canonicalize --check "nu/$(printf \'caf\\351.jsonl\')" -r json');
    expect(check.stderr.toString()).toBe('');
    expect(pathsOf(check.stdout.toString())).toEqual(['nu/caf\uDCE9.jsonl']);
  });

  it('scan -l -0 | xargs -0 repair --in-place repairs each file, with a backup under its own name', () => {
    const { dir, bytes } = folder();
    const run = shell(dir, 'node "$TD" scan nu -l -0 | xargs -0 node "$TD" repair --in-place');
    expect(run.stderr.toString()).toBe('');
    expect(run.status).toBe(0);
    for (const name of [LATIN1, OTHER]) expect(readFileSync(bytes(name))).not.toEqual(readFileSync(BROKEN));
    const names = readdirSync(join(dir, 'nu'), { encoding: 'buffer' });
    expect(names.filter((name) => name.subarray(0, LATIN1.length).equals(LATIN1) && name.includes('.bak-'))).toHaveLength(1);
    expect(shell(dir, 'node "$TD" scan nu').status).toBe(0);
  });

  it('one name in a list that is not there: the others are checked and reported, exit 2', async () => {
    const { dir } = folder();
    const run = await runCli(['scan', '--files-from', '-', '-0', '-r', 'json'], { cwd: dir, input: 'nu/ok.jsonl\0nu/gone.jsonl\0' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('transcript-doctor: cannot read nu/gone.jsonl: no such file or directory\n');
    expect(pathsOf(run.stdout)).toEqual(['nu/ok.jsonl']);
  });
});
