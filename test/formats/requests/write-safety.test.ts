import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../../cli/run-cli.js';

const BROKEN = join(ROOT, 'fixtures', 'requests', 'openai-chat-broken.jsonl');

/** A dataset big enough that a repair is still writing when it is killed: the broken fixture many times over. */
function bigDataset(dir: string): string {
  const file = join(dir, 'dataset.jsonl');
  writeFileSync(file, readFileSync(BROKEN, 'utf8').repeat(500));
  return file;
}

describe('requests: writing a repaired dataset', () => {
  it('--out onto the input is refused and the input is untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-requests-safe-')), 'dataset.jsonl');
    copyFileSync(BROKEN, file);
    const result = await runCli(['repair', '--out', file, file]);
    expect(result.code).toBe(2);
    expect(readFileSync(file)).toEqual(readFileSync(BROKEN));
  });

  it('a lock held by a running process blocks --in-place', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-requests-safe-')), 'dataset.jsonl');
    copyFileSync(BROKEN, file);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid }));
    const result = await runCli(['repair', '--in-place', file]);
    expect(result.code).toBe(2);
    expect(readFileSync(file)).toEqual(readFileSync(BROKEN));
  });

  it('--in-place keeps a backup of the original bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-safe-'));
    const file = join(dir, 'dataset.jsonl');
    copyFileSync(BROKEN, file);
    const result = await runCli(['repair', '--in-place', '-r', 'json', file]);
    expect(result.code).toBe(0);
    const backup = JSON.parse(result.stdout).files[0].backup as string;
    expect(readFileSync(backup)).toEqual(readFileSync(BROKEN));
    expect(readFileSync(file)).not.toEqual(readFileSync(BROKEN));
  });

  it('killed early or late, --in-place leaves the original or the whole repair, and the next run leaves no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-kill-'));
    const file = bigDataset(dir);
    const original = readFileSync(file);
    const expected = join(dir, 'expected.jsonl');
    expect((await runCli(['repair', file, '--out', expected])).code).toBe(0);
    const repaired = readFileSync(expected);
    for (const delay of [50, 600]) {
      writeFileSync(file, original);
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'repair', '--in-place', '--no-backup', file], { cwd: ROOT, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      setTimeout(() => child.kill('SIGKILL'), delay);
      await exited;
      const now = readFileSync(file);
      expect(now.equals(original) || now.equals(repaired), `killed after ${delay} ms`).toBe(true);
    }
    expect((await runCli(['repair', '--in-place', '--no-backup', file])).code).toBe(0);
    expect(readFileSync(file)).toEqual(repaired);
    expect(readdirSync(dir).filter((name) => name !== 'dataset.jsonl' && name !== 'expected.jsonl')).toEqual([]);
  }, 300_000);
});
