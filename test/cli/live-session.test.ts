import { copyFileSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPid } from '../helpers/processes.js';
import { runCli } from './run-cli.js';

/** A session that ends in an unanswered call, as an interrupted run leaves it. */
const TAIL = 'fixtures/pi/tail-tool-call.jsonl';

function session(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'td-live-')), 'ed392cde.jsonl');
  copyFileSync(TAIL, file);
  return file;
}


describe('a session that ends in an unanswered call', () => {
  it('is an error (exit 1) when no lock names a running agent', async () => {
    const result = await runCli(['scan', session()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error .*no running agent holds it/);
  });

  it('is an error when the lock names a dead process', async () => {
    const file = session();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: await deadPid(), createdAt: new Date().toISOString() }));
    expect((await runCli(['scan', file])).code).toBe(1);
  });

  it.each([
    ['OpenClaw JSON', (pid: number) => JSON.stringify({ pid, createdAt: new Date().toISOString(), maxHoldMs: 60000 })],
    ['pid as a string', (pid: number) => JSON.stringify({ pid: String(pid) })],
    ['bare pid', (pid: number) => `${pid}\n`],
  ])('is a warning (exit 0) while a live process holds the lock (%s)', async (_, lock) => {
    const file = session();
    writeFileSync(`${file}.lock`, lock(process.pid));
    const result = await runCli(['scan', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`warning .*process ${process.pid} holds its lock`));
  });

  it('follows a symlink to the real session and its lock', async () => {
    const file = session();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid }));
    const link = join(mkdtempSync(join(tmpdir(), 'td-live-link-')), 'linked.jsonl');
    symlinkSync(file, link);
    expect((await runCli(['scan', link])).code).toBe(0);
  });

  it('is not let through by a baseline that does not know it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-live-baseline-'));
    const baseline = join(dir, 'baseline.json');
    expect((await runCli(['scan', 'fixtures/pi/healthy.jsonl', '--write-baseline', baseline])).code).toBe(0);
    const result = await runCli(['scan', session(), '--baseline', baseline]);
    expect(result.code).toBe(1);
  });
});
