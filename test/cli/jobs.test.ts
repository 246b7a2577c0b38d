import { mkdtempSync, readdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

describe('scan --jobs', () => {
  it('gives the same report, in the same order, whatever the number of threads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-jobs-'));
    const fixtures = readdirSync(join(ROOT, 'fixtures', 'pi')).filter((name) => name.endsWith('.jsonl'));
    // Enough files that every thread gets several.
    for (let copy = 0; copy < 3; copy++) for (const name of fixtures) copyFileSync(join(ROOT, 'fixtures', 'pi', name), join(dir, `${copy}-${name}`));
    const runs = await Promise.all([1, 2, 3].map((jobs) => runCli(['scan', dir, '--jobs', String(jobs), '-r', 'json'])));
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1]);
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
    expect(JSON.parse(runs[0]!.stdout).summary.files).toBe(fixtures.length * 3);
  });

  it('a bad --jobs is a usage error', async () => {
    const result = await runCli(['scan', 'fixtures/pi', '--jobs', '0']);
    expect(result).toMatchObject({ code: 2, stderr: 'transcript-doctor: --jobs must be a whole number ≥ 1, not "0"\n' });
  });
});
