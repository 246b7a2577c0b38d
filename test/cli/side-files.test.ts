import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliResult } from './run-cli.js';

/** The files read beside the transcripts (lock, config, baseline, reports) are never FIFOs or devices, and are bounded. */
const BROKEN = join(ROOT, 'fixtures', 'pi', 'tail-tool-call.jsonl');

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-side-'));
  copyFileSync(BROKEN, join(dir, 's.jsonl'));
  return dir;
}

function oneLineError(result: CliResult, message: string): void {
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(`transcript-doctor: ${message}\n`);
}

describe('lock files that are not an agent lock', () => {
  it.each([
    ['a FIFO', (lock: string) => execFileSync('mkfifo', [lock])],
    ['/dev/urandom', (lock: string) => symlinkSync('/dev/urandom', lock)],
    ['/dev/zero', (lock: string) => symlinkSync('/dev/zero', lock)],
  ])('%s as <session>.lock: scan, repair --in-place and canonicalize --in-place finish, as if not locked', async (_name, make) => {
    const dir = folder();
    make(join(dir, 's.jsonl.lock'));
    expect((await runCli(['scan', dir, '-r', 'json'])).code).toBe(1);
    expect((await runCli(['canonicalize', '--in-place', join(dir, 's.jsonl')])).code).toBe(0);
    expect((await runCli(['repair', '--in-place', '--no-backup', join(dir, 's.jsonl')])).code).toBe(0);
    expect(readFileSync(join(dir, 's.jsonl'))).not.toEqual(readFileSync(BROKEN));
  });
});

describe('config files', () => {
  it('a FIFO or /dev/zero found upwards, or given with -c, is refused unread in one line', async () => {
    const fifo = folder();
    execFileSync('mkfifo', [join(fifo, 'transcript-doctor.config.json')]);
    oneLineError(await runCli(['scan', 's.jsonl'], { cwd: fifo }), `${join(fifo, 'transcript-doctor.config.json')}: cannot be read: a FIFO, not a regular file`);
    const zero = folder();
    symlinkSync('/dev/zero', join(zero, 'transcript-doctor.config.json'));
    oneLineError(await runCli(['scan', 's.jsonl'], { cwd: zero }), `${join(zero, 'transcript-doctor.config.json')}: cannot be read: a character device, not a regular file`);
    oneLineError(await runCli(['repair', '-c', '/dev/zero', join(fifo, 's.jsonl')]), '/dev/zero: cannot be read: a character device, not a regular file');
  });

  it('a config over 1 MiB is refused; one that starts with a byte order mark is read', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'big.json'), `{"ignores":[${'"x",'.repeat(300_000)}"y"]}`);
    oneLineError(await runCli(['scan', '-c', join(dir, 'big.json'), join(dir, 's.jsonl')]), `${join(dir, 'big.json')}: cannot be read: 1.1 MiB, more than the 1 MiB it may be`);
    writeFileSync(join(dir, 'transcript-doctor.config.json'), '\uFEFF{"rules":{"missing-tool-result":"off"}}');
    const result = await runCli(['scan', 's.jsonl', '-r', 'json'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).files[0].findings.map((f: { rule: string }) => f.rule)).not.toContain('missing-tool-result');
  });
});

describe('baselines and reports', () => {
  it('--baseline /dev/zero, a FIFO or a folder is refused unread', async () => {
    const dir = folder();
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    oneLineError(await runCli(['scan', join(dir, 's.jsonl'), '--baseline', '/dev/zero']), 'cannot read baseline /dev/zero: a character device, not a regular file');
    oneLineError(await runCli(['scan', join(dir, 's.jsonl'), '--baseline', join(dir, 'fifo.json')]), `cannot read baseline ${join(dir, 'fifo.json')}: a FIFO, not a regular file`);
    oneLineError(await runCli(['scan', join(dir, 's.jsonl'), '--baseline', dir]), `cannot read baseline ${dir}: a folder, not a regular file`);
  });

  it('a baseline and a report with a byte order mark are read', async () => {
    const dir = folder();
    const baseline = join(dir, 'baseline.json');
    const report = join(dir, 'r.json');
    expect((await runCli(['scan', join(dir, 's.jsonl'), '--write-baseline', baseline, '-r', 'json', '--output-file', report])).code).toBe(1);
    writeFileSync(baseline, `\uFEFF${readFileSync(baseline, 'utf8')}`);
    writeFileSync(report, `\uFEFF${readFileSync(report, 'utf8')}`);
    expect(await runCli(['scan', join(dir, 's.jsonl'), '--baseline', baseline])).toMatchObject({ code: 0, stderr: '' });
    expect(await runCli(['merge-reports', report, '-r', 'json'])).toMatchObject({ code: 1, stderr: '' });
  });

  it('merge-reports refuses /dev/zero and a FIFO unread', async () => {
    const dir = folder();
    execFileSync('mkfifo', [join(dir, 'r.json')]);
    oneLineError(await runCli(['merge-reports', '/dev/zero']), 'cannot read report /dev/zero: a character device, not a regular file');
    oneLineError(await runCli(['merge-reports', join(dir, 'r.json')]), `cannot read report ${join(dir, 'r.json')}: a FIFO, not a regular file`);
  });
});

describe('--files-from lists that are not lists', () => {
  // The input fits in a pipe buffer: the CLI stops reading early, and a bigger write would fail with EPIPE.
  it('/dev/zero with -0, as a file or on standard input, ends with one line', async () => {
    oneLineError(await runCli(['scan', '--files-from', '/dev/zero', '-0']), '--files-from /dev/zero is a character device, not a file holding a list of paths');
    oneLineError(await runCli(['scan', '--files-from', '-', '-0'], { input: Buffer.alloc(32 * 1024) }), '--files-from -: more than 1000 empty entries; this is not a list of paths');
  });

  it('a CRLF list with a line of spaces names its files', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'more'));
    copyFileSync(BROKEN, join(dir, 'more', 't.jsonl'));
    const result = await runCli(['scan', '--files-from', '-', '-r', 'json'], { cwd: dir, input: 's.jsonl\r\n   \r\nmore/t.jsonl\r\n' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).files.map((file: { path: string }) => file.path)).toEqual(['s.jsonl', 'more/t.jsonl']);
  });
});
