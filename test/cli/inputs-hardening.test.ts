import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

// The same cases as harden/inputs.mjs, a few of each kind: every one must end, with the
// expected exit code and one line per message, never a stack trace.

const HEALTHY = join(ROOT, 'fixtures', 'pi', 'healthy.jsonl');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-cli-inputs-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fifo = join(root, 'pipe.jsonl');
execFileSync('mkfifo', [fifo]);
const FIFO_REFUSED = `transcript-doctor: nothing to read: ${fifo} is a FIFO, not a regular file (to read a pipe, send it to standard input and pass -)\n`;

function expectOneLineMessages(stderr: string): void {
  for (const line of stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^transcript-doctor: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('inputs that used to hang', () => {
  for (const args of [['scan'], ['repair'], ['repair', '--dry-run'], ['canonicalize'], ['canonicalize', '--check']]) {
    it(`${args.join(' ')} refuses a FIFO with no writer, exit 2`, async () => {
      const result = await runCli([...args, fifo]);
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: FIFO_REFUSED });
    });
  }

  it('verify refuses a FIFO before sending anything', async () => {
    const result = await runCli(['verify', '--model', 'openai/judge', '--base-url', 'http://127.0.0.1:9/v1', '--no-cache', fifo], { env: { OPENAI_API_KEY: 'unused' } });
    expect(result).toMatchObject({ code: 2, stderr: FIFO_REFUSED });
  });

  it('scan and repair skip a FIFO in a folder with a warning and do the rest', async () => {
    const dir = join(root, 'with-fifo');
    mkdirSync(dir);
    copyFileSync(HEALTHY, join(dir, 'ok.jsonl'));
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const warning = `transcript-doctor: skipped ${join(dir, 'pipe.jsonl')}: a FIFO, not a regular file (to read a pipe, send it to standard input and pass -)\n`;
    const scan = await runCli(['scan', dir, '-r', 'json']);
    expect(scan).toMatchObject({ code: 0, stderr: warning });
    expect(JSON.parse(scan.stdout).files.map((file: { path: string }) => file.path)).toEqual([join(dir, 'ok.jsonl')]);
    expect(await runCli(['repair', '--dry-run', dir])).toMatchObject({ code: 0, stderr: warning });
  });

  it('scan names a file once in a folder that links to itself and to its parent', async () => {
    const dir = join(root, 'loops');
    mkdirSync(dir);
    copyFileSync(HEALTHY, join(dir, 'a.jsonl'));
    symlinkSync('.', join(dir, 'here'));
    symlinkSync('..', join(dir, 'up'));
    const result = await runCli(['scan', dir, '-r', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).files.map((file: { path: string }) => file.path)).toEqual([join(dir, 'a.jsonl')]);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(2);
    expectOneLineMessages(result.stderr);
  });

  it('scan and repair refuse /dev/zero and /dev/null at once', async () => {
    for (const args of [['scan', '/dev/zero'], ['repair', '/dev/zero'], ['scan', '/dev/null']]) {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`transcript-doctor: nothing to read: ${args[1]} is a character device, not a regular file\n`);
    }
  });
});
