import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, renderProgress, showProgress } from '../../src/commands/progress.js';
import { ROOT } from './run-cli.js';

describe('when the progress line shows', () => {
  it('only on a terminal, never under CI (whatever its value), on a dumb terminal or one with no width', () => {
    expect(showProgress(true, {}, 80)).toBe(true);
    expect(showProgress(true, { TERM: 'xterm-256color' }, 20)).toBe(true);
    expect(showProgress(false, {}, 80)).toBe(false);
    expect(showProgress(undefined, {}, 80)).toBe(false);
    for (const CI of ['1', 'true', 'false', '']) expect(showProgress(true, { CI }, 80), `CI=${CI}`).toBe(false);
    expect(showProgress(true, { TERM: 'dumb' }, 80)).toBe(false);
    for (const columns of [undefined, 0, 19]) expect(showProgress(true, {}, columns), `${columns} columns`).toBe(false);
  });
});

describe('the progress line', () => {
  it('counts files, then bytes once every size is known', () => {
    expect(renderProgress('Scanning', { filesDone: 0, filesTotal: 1, bytesDone: 0 })).toBe('Scanning 0/1 file');
    expect(renderProgress('Scanning', { filesDone: 3, filesTotal: 40, bytesDone: 0 })).toBe('Scanning 3/40 files');
    expect(renderProgress('Scanning', { filesDone: 12, filesTotal: 40, bytesDone: 3_140_000, bytesTotal: 10_400_000 })).toBe('Scanning 12/40 files, 3.1 MB/10 MB (30%)');
    expect(renderProgress('Rewriting', { filesDone: 2, filesTotal: 2, bytesDone: 999, bytesTotal: 999 })).toBe('Rewriting 2/2 files, 999 B/999 B (100%)');
    // Standard input only: no size to count.
    expect(renderProgress('Verifying', { filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 0 })).toBe('Verifying 0/1 file');
  });

  it('writes sizes in SI units', () => {
    expect([0, 999, 1000, 1500, 12_345, 999_999, 1_000_000, 2.5e9, 7e12, 9e15].map(formatBytes)).toEqual([
      '0 B',
      '999 B',
      '1.0 kB',
      '1.5 kB',
      '12 kB',
      '1000 kB',
      '1.0 MB',
      '2.5 GB',
      '7.0 TB',
      '9000 TB',
    ]);
  });

  it('shows on standard error under a pseudo-terminal for a run that lasts; not for a quick one, under CI or with no terminal size', () => {
    const report = join(mkdtempSync(join(tmpdir(), 'td-progress-')), 'report.json');
    // A run that lasts: its transcript arrives on standard input seconds after the scan started waiting
    // (8 s where the line must show, so a slow start of Node on a busy machine still leaves it time).
    const slowFor = (seconds: number) => `(sleep ${seconds}; cat fixtures/pi/healthy.jsonl) | node bin/transcript-doctor.js scan - -r json -o ${report}`;
    const slow = slowFor(4);
    const quick = `node bin/transcript-doctor.js scan fixtures/pi/healthy.jsonl -r json -o ${report}`;
    const { CI: _, ...withoutCi } = process.env;
    // script(1) gives the command a terminal and copies everything it prints to ours; a
    // pseudo-terminal starts with no size, so it is given one, as a terminal window has.
    const run = (command: string, env: NodeJS.ProcessEnv = {}, size = 'cols 100 rows 30') =>
      spawnSync('script', ['-q', '-e', '-c', `stty ${size}; ${command}`, '/dev/null'], { cwd: ROOT, env: { ...withoutCi, TERM: 'xterm', ...env }, encoding: 'utf8', timeout: 60_000 });
    const terminal = run(slowFor(8));
    expect(terminal.status).toBe(0);
    expect(terminal.stdout).toContain('Scanning 0/1 file');
    expect(JSON.parse(readFileSync(report, 'utf8')).summary.files).toBe(1);
    for (const [name, result] of [
      ['quick', run(quick)],
      ['CI', run(slow, { CI: 'true' })],
      ['unsized', run(slow, {}, 'cols 0 rows 0')],
    ] as const) {
      expect(result.status, name).toBe(0);
      expect(result.stdout, name).not.toContain('Scanning');
    }
  }, 60_000);
});
