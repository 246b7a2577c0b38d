import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { call, Session, text } from '../helpers/session.js';
import { ROOT, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'td-checkpoint-kills-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Every file checkpointed, and remembered a moment after it was written.
const env = { TRANSCRIPT_DOCTOR_CHECKPOINT_MIN_BYTES: '0', TRANSCRIPT_DOCTOR_CACHE_RACY_MS: '20' };

function session(turns: number): string {
  const built = new Session().user('please check my notes');
  for (let k = 0; k < turns; k++) built.calls(call(`call_${k}`)).result(`call_${k}`, 'read', { message: { content: [text('x'.repeat(2000))] } }).reply(`turn ${k} done`);
  return built.jsonl();
}

/** A scan with the cache, killed (SIGKILL) `afterMs` into its run. */
function killedScan(file: string, cacheDir: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'scan', file, '--cache-dir', cacheDir, '-r', 'json'], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('checkpoints under kills', () => {
  it('leaves no checkpoint a later scan takes for another: scans killed at any moment, then the file grown, give the report of a cold scan', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, session(1500));
    const cacheDir = join(dir, 'cache');
    await sleep(60);
    for (let k = 0; k < 12; k++) {
      await killedScan(file, cacheDir, 60 + 40 * k);
      // Between kills the file grows, as an agent's does: each scan may read on from what the last one left.
      if (k % 3 === 2) appendFileSync(file, session(2).split('\n').slice(1).join('\n'));
      await sleep(30);
    }
    const warm = await runCli(['scan', file, '--cache-dir', cacheDir, '-r', 'json'], { env });
    const cold = await runCli(['scan', file, '--no-cache', '-r', 'json'], { env });
    expect(warm.stderr).toBe('');
    expect(warm.stdout).toBe(cold.stdout);
    // Whatever a killed write left is a temp file, never a checkpoint of half a model.
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('checkpoint-')).length).toBeLessThanOrEqual(1);
  });
});
