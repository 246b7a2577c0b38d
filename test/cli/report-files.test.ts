import { copyFileSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const BROKEN = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
const LEGACY = join(ROOT, 'fixtures', 'pi', 'non-canonical-tool-call.jsonl');

/** A folder holding a broken session and a legacy one, as s.jsonl and legacy.jsonl. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-report-files-'));
  copyFileSync(BROKEN, join(dir, 's.jsonl'));
  copyFileSync(LEGACY, join(dir, 'legacy.jsonl'));
  return dir;
}

const jsonReport = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { files: { path: string }[] };

describe('report files are written where asked, and never over each other', () => {
  it('E19 — repair --diff -f json -o report.json writes the report, and the diff still goes to standard output', async () => {
    const dir = workspace();
    const result = await runCli(['repair', '--diff', '-f', 'json', '-o', 'report.json', 's.jsonl'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^--- a\/s\.jsonl\n\+\+\+ b\/s\.jsonl\n@@ /);
    expect(jsonReport(join(dir, 'report.json')).files.map((file) => file.path)).toEqual(['s.jsonl']);
    expect(readFileSync(join(dir, 's.jsonl')).equals(readFileSync(BROKEN))).toBe(true);
  });

  it('E19 — canonicalize --diff writes every report asked for, each to its file', async () => {
    const dir = workspace();
    const result = await runCli(['canonicalize', '--diff', '-r', 'json', '-r', 'junit', '--output-file', 'json:r.json', '--output-file', 'junit:r.xml', 'legacy.jsonl'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^--- a\/legacy\.jsonl\n/);
    expect(jsonReport(join(dir, 'r.json')).files).toHaveLength(1);
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('E19 — repair --diff with a reporter and no file sends the report to standard error, never into the diff', async () => {
    const dir = workspace();
    const result = await runCli(['repair', '--diff', '-f', 'json', 's.jsonl'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.startsWith('--- a/s.jsonl\n')).toBe(true);
    expect(result.stdout).not.toContain('"files"');
    expect((JSON.parse(result.stderr) as { files: unknown[] }).files).toHaveLength(1);
  });

  const clashes: [string, string[]][] = [
    ['scan', ['scan', 's.jsonl']],
    ['scan -l', ['scan', '-l', 's.jsonl']],
    ['repair --out', ['repair', 's.jsonl', '--out', 'fixed.jsonl']],
    ['repair --diff', ['repair', '--diff', 's.jsonl']],
    ['repair --in-place', ['repair', '--in-place', 's.jsonl']],
    ['canonicalize --check', ['canonicalize', '--check', 'legacy.jsonl']],
    ['canonicalize --diff', ['canonicalize', '--diff', 'legacy.jsonl']],
    ['verify', ['verify', '--model', 'openai/none', '--base-url', 'http://127.0.0.1:9/v1', 's.jsonl']],
  ];
  for (const [name, args] of clashes) {
    it(`E19 — ${name}: two reporters given the same file are refused (exit 2, one line), nothing written`, async () => {
      const dir = workspace();
      for (const files of [
        ['--output-file', 'json:r.out', '--output-file', 'junit:r.out'],
        ['-o', 'r.out', '--output-file', 'junit:./sub/../r.out'],
      ]) {
        const result = await runCli([...args, '-r', 'json', '-r', 'junit', ...files], { cwd: dir });
        expect(result.code, files.join(' ')).toBe(2);
        expect(result.stderr, files.join(' ')).toMatch(/^transcript-doctor: --output-file \S+ \(the json report\) and --output-file \S+ \(the junit report\) are the same file; give each its own\n$/);
        expect(result.stdout).toBe('');
        expect(existsSync(join(dir, 'r.out'))).toBe(false);
      }
      expect(readFileSync(join(dir, 's.jsonl')).equals(readFileSync(BROKEN))).toBe(true);
    });
  }

  it('E19 — the same file by a symbolic link, a report over --out, a report over the baseline: refused, nothing changed', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'r.json'), 'an earlier report\n');
    symlinkSync('r.json', join(dir, 'alias.xml'));
    const cases = [
      ['scan', 's.jsonl', '-r', 'json', '-r', 'junit', '--output-file', 'json:r.json', '--output-file', 'junit:alias.xml'],
      ['repair', 's.jsonl', '--out', 'r.json', '-f', 'json', '-o', 'r.json'],
      ['scan', 's.jsonl', '--write-baseline', 'r.json', '-f', 'json', '-o', 'alias.xml'],
    ];
    for (const args of cases) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(/are the same file/);
      expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe('an earlier report\n');
    }
  });

  it('E19 — merge-reports: two reporters given the same file are refused', async () => {
    const dir = workspace();
    expect((await runCli(['scan', 's.jsonl', '-f', 'json', '-o', 'one.json'], { cwd: dir })).code).toBe(1);
    const result = await runCli(['merge-reports', 'one.json', '-r', 'json', '-r', 'junit', '--output-file', 'json:m.out', '--output-file', 'junit:m.out'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^transcript-doctor: .* are the same file; give each its own\n$/);
    expect(existsSync(join(dir, 'm.out'))).toBe(false);
  });

  it('E19 — with a file of their own each, every command writes every report asked for', async () => {
    const dir = workspace();
    const runs = [
      ['scan', 's.jsonl'],
      ['scan', '-l', 's.jsonl'],
      ['repair', '--dry-run', 's.jsonl'],
      ['repair', 's.jsonl', '--out', 'fixed.jsonl'],
      ['repair', '--diff', 's.jsonl'],
      ['canonicalize', '--check', 'legacy.jsonl'],
      ['canonicalize', '--diff', 'legacy.jsonl'],
    ];
    for (const [i, args] of runs.entries()) {
      const result = await runCli([...args, '-r', 'json', '-r', 'junit', '--output-file', `json:${i}.json`, '--output-file', `junit:${i}.xml`], { cwd: dir });
      expect(result.code, args.join(' ')).not.toBe(2);
      expect(jsonReport(join(dir, `${i}.json`)).files, args.join(' ')).toHaveLength(1);
      expect(readFileSync(join(dir, `${i}.xml`), 'utf8'), args.join(' ')).toMatch(/<testsuites/);
    }
  });
});
