import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scan } from '../../src/api/scan.js';
import { ROOT } from '../cli/run-cli.js';
import { unansweredCalls } from './lines.mjs';

const CHILD = join(import.meta.dirname, 'writer-child.mjs');
const LIBRARY = join(ROOT, 'dist', 'index.js');

/** Starts a writer process on `file`, waits until it is writing, lets it run `ms`, and kills it with SIGKILL. */
async function killWhileWriting(file: string, format: string, prefix: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, [CHILD, LIBRARY, file, format, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.on('exit', () => reject(new Error(`the writer exited before it was ready: ${stderr}`)));
  });
  await sleep(ms);
  child.kill('SIGKILL');
  await exited;
}

describe('openSessionWriter killed with SIGKILL at random moments', () => {
  it.each([
    ['pi', 40],
    ['claude-code', 20],
    ['codex', 20],
  ])('%s: %i kills leave a file with no unanswered call, that scans without errors', async (format, kills) => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-kill-')), 'session.jsonl');
    for (let i = 1; i <= kills; i++) await killWhileWriting(file, format, i.toString(16).padStart(8, '0'), Math.random() * 60);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toMatch(/\n\n/);
    expect(unansweredCalls(format, text)).toEqual([]);
    // Every run wrote some turns, and the file holds calls answered across many of them.
    expect(text.split('\n').length).toBeGreaterThan(kills * 3);
    const report = await scan(file);
    expect(report.files[0]!.findings.filter((finding) => finding.severity === 'error').map((finding) => `${finding.rule}:${finding.line}`)).toEqual([]);
  }, 180_000);
});
