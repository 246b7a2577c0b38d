import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const DISPLACED = 'fixtures/demo/e0b11ca0-75b4-4eef-8961-955e55832882.jsonl';
const LOOP = 'fixtures/demo/f787cf70-51e3-4c8b-9204-2dfbea70be02.jsonl';
const HEALTHY = 'fixtures/pi/healthy.jsonl';

function copy(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-repair-cli-'));
  const file = join(dir, fixture.split('/').pop()!);
  copyFileSync(fixture, file);
  return file;
}

describe('transcript-doctor repair', () => {
  it('--in-place fixes the file, keeps its mode and a byte-identical backup', async () => {
    const file = copy(DISPLACED);
    chmodSync(file, 0o600);
    const original = readFileSync(file);
    const result = await runCli(['repair', '--in-place', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/repaired: dropped 1 duplicate, moved 1 result, relinked 3 entries \(backup: .*\.bak-\d{4}-\d\d-\d\dT/);
    const backups = readdirSync(join(file, '..')).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(file, '..', backups[0]!))).toEqual(original);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await runCli(['scan', file])).code).toBe(0);
    const again = await runCli(['repair', '--in-place', file]);
    expect(again.code).toBe(0);
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('.bak-'))).toHaveLength(1);
  });

  it('--in-place on a Claude Code session: repaired in its own shapes, backup byte-identical, scans clean', async () => {
    const file = copy('fixtures/claude-code/missing-tool-result.jsonl');
    const original = readFileSync(file);
    const result = await runCli(['repair', '--in-place', '--mode', 'synthetic', file]);
    expect(result.code).toBe(0);
    const backups = readdirSync(join(file, '..')).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(file, '..', backups[0]!))).toEqual(original);
    const added = readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"is_error":true')).map((line) => JSON.parse(line));
    expect(added.length).toBeGreaterThan(0);
    for (const line of added) expect(line).toMatchObject({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', is_error: true }] } });
    expect((await runCli(['scan', file, '-q'])).code).toBe(0);
    expect((await runCli(['repair', '--in-place', file])).code).toBe(0);
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('.bak-'))).toHaveLength(1); // nothing left to change: no new backup
  });

  it('a whole JSON document (not JSON Lines) is one finding, and --in-place leaves every byte of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-repair-cli-'));
    const file = join(dir, 'export.jsonl');
    const document = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` })), null, 2);
    writeFileSync(file, document);
    const result = await runCli(['repair', '--in-place', file, '-f', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].findings.map((finding: { rule: string }) => finding.rule)).toEqual(['json-document']);
    expect(readFileSync(file, 'utf8')).toBe(document);
    expect(readdirSync(dir)).toEqual(['export.jsonl']);
  });

  it('--no-backup keeps no copy', async () => {
    const file = copy(LOOP);
    expect((await runCli(['repair', '--in-place', '--no-backup', file])).code).toBe(0);
    expect(readdirSync(join(file, '..'))).toEqual([file.split('/').pop()]);
  });

  it('refuses a file whose lock names a live process, unless --force', async () => {
    const file = copy(LOOP);
    const original = readFileSync(file);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    const refused = await runCli(['repair', '--in-place', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`locked by running process ${process.pid}`));
    expect(readFileSync(file)).toEqual(original);
    expect((await runCli(['repair', '--in-place', '--force', file])).code).toBe(0);
    expect(readFileSync(file)).not.toEqual(original);
  });

  it('a folder it cannot write to gives exit 2 and leaves the original untouched', async () => {
    const file = copy(LOOP);
    const original = readFileSync(file);
    const out = join(file, '..', 'missing', 'deeper', 'x.jsonl');
    chmodSync(join(file, '..'), 0o555);
    try {
      const result = await runCli(['repair', '--in-place', file]);
      const probe = (() => {
        try {
          writeFileSync(join(file, '..', 'probe'), 'x');
          return true;
        } catch {
          return false;
        }
      })();
      if (!probe) {
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^transcript-doctor: cannot write .*permission denied\n$/);
        expect(readFileSync(file)).toEqual(original);
      } else {
        // Running as root: permissions do not stop writes, so check a path that cannot exist instead.
        const blocked = await runCli(['repair', file, '--out', join(file, 'not-a-folder', 'x.jsonl')]);
        expect(blocked.code).toBe(2);
        expect(blocked.stderr).toMatch(/^transcript-doctor: cannot (write|create) /);
      }
      void out;
    } finally {
      chmodSync(join(file, '..'), 0o755);
    }
  });

  it('is a pipe stage: - in, repaired transcript out, report on stderr', async () => {
    const input = readFileSync(DISPLACED);
    const result = await runCli(['repair', '-'], { input });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('repaired: dropped 1 duplicate');
    const scan = await runCli(['scan', '-', '-r', 'json'], { input: result.stdout });
    expect(JSON.parse(scan.stdout).summary).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('--dry-run lists what would change and writes nothing', async () => {
    const file = copy(DISPLACED);
    const original = readFileSync(file);
    const result = await runCli(['repair', '--dry-run', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('would repair: dropped 1 duplicate, moved 1 result');
    expect(result.stdout).toContain('drop lines 12');
    expect(result.stdout).toContain('move lines 14');
    expect(readFileSync(file)).toEqual(original);
    expect(readdirSync(join(file, '..'))).toHaveLength(1);
  });

  it('-o writes a folder of repaired copies with the same relative names, and a JSON report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'td-out-'));
    const result = await runCli(['repair', 'fixtures/demo', '--out', out, '-r', 'json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual({ files: 4, changed: 3, errors: 0, warnings: 0 });
    const loop = report.files.find((f: { path: string }) => f.path === LOOP);
    expect(loop).toMatchObject({ changed: true, output: join(out, 'f787cf70-51e3-4c8b-9204-2dfbea70be02.jsonl'), backup: null });
    expect(loop.counts).toMatchObject({ droppedToolCalls: 1, droppedOrphans: 1, rewrittenEntries: 3 });
    expect(readdirSync(out).sort()).toEqual(readdirSync('fixtures/demo').sort());
    expect(readFileSync(join(out, 'd7e72770-c025-4796-baf0-d4d1f2035ea7.jsonl'))).toEqual(readFileSync('fixtures/demo/d7e72770-c025-4796-baf0-d4d1f2035ea7.jsonl'));
  });

  it('exits 1 when an error cannot be fixed (two different entries share an id)', async () => {
    const lines = readFileSync('fixtures/pi/duplicate-entry-id.jsonl', 'utf8').split('\n');
    lines[7] = lines[7]!.replace('Drop 18 from the matrix.', 'Keep 18 in the matrix.');
    const result = await runCli(['repair', '--dry-run', '-'], { input: lines.join('\n') });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('duplicate-entry-id');
  });

  it('drops the earlier of two writes of one entry, and exits 0', async () => {
    const result = await runCli(['repair', 'fixtures/pi/duplicate-entry-id.jsonl']);
    expect(result.code).toBe(0);
    const source = readFileSync('fixtures/pi/duplicate-entry-id.jsonl', 'utf8').split('\n');
    expect(result.stdout.split('\n')).toEqual([...source.slice(0, 6), ...source.slice(7)]);
  });

  it('takes the mode from OPENCLAW_TOOL_GUARD_ABORT_MODE, and --mode wins', async () => {
    const input = readFileSync('fixtures/pi/missing-tool-result.jsonl');
    const synthetic = await runCli(['repair', '-'], { input, env: { OPENCLAW_TOOL_GUARD_ABORT_MODE: 'synthetic' } });
    expect(synthetic.stdout).toContain('openclawSyntheticMissingToolResult');
    const discard = await runCli(['repair', '-', '--mode', 'discard'], { input, env: { OPENCLAW_TOOL_GUARD_ABORT_MODE: 'synthetic' } });
    expect(discard.stdout).not.toContain('openclawSyntheticMissingToolResult');
    const bad = await runCli(['repair', '-'], { input, env: { OPENCLAW_TOOL_GUARD_ABORT_MODE: 'sometimes' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('transcript-doctor: OPENCLAW_TOOL_GUARD_ABORT_MODE must be discard or synthetic, not "sometimes"\n');
  });

  it('refuses ambiguous or unsafe requests with exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['repair'], /needs files, folders or -/],
      [['repair', 'fixtures/demo'], /4 transcripts to repair: use --in-place, --out <folder> or --dry-run/],
      [['repair', '--in-place', '--dry-run', HEALTHY], /choose one of --in-place, --dry-run/],
      [['repair', '--in-place', '-'], /--in-place cannot write back to standard input/],
      [['repair', '--mode', 'maybe', HEALTHY], /Allowed choices are discard, synthetic/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync('fixtures/demo.bak')).toBe(false);
  });
});
