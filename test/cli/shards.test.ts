import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardKey, shardOf } from '../../src/run/shard.js';
import { ROOT, runCli } from './run-cli.js';

const INPUTS = ['fixtures/claude-code', 'fixtures/codex', 'fixtures/pi', 'fixtures/demo'];
const tempDir = () => mkdtempSync(join(tmpdir(), 'td-shards-'));

interface Report {
  files: Array<{ path: string }>;
  summary: Record<string, number>;
  tool: { version: string };
  ruleSet?: string;
}
const json = (text: string) => JSON.parse(text) as Report;
const byPath = (report: Report): Report => ({ ...report, files: [...report.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) });

describe('--shard i/n', () => {
  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1/2/3', '', '1.5/3', '-1/3', '99999999999999999999/1']) {
      expect(() => parseShard(bad), bad).toThrow(/--shard must be i\/n/);
    }
  });

  it('hashes the path relative to the working directory, so ./a, a and b/../a agree', () => {
    const cwd = '/work/repo';
    const key = shardKey('sessions/a.jsonl', cwd);
    expect(key).toBe('sessions/a.jsonl');
    for (const other of ['./sessions/a.jsonl', 'sessions//a.jsonl', 'x/../sessions/a.jsonl', '/work/repo/sessions/a.jsonl']) expect(shardKey(other, cwd)).toBe(key);
    expect(shardKey('/elsewhere/a.jsonl', cwd)).toBe('/elsewhere/a.jsonl');
    expect(shardKey('../a.jsonl', cwd)).toBe('/work/a.jsonl');
    expect(shardKey('..a.jsonl', cwd)).toBe('..a.jsonl');
  });

  it('reaches the working directory through a symlink ($PWD) and still hashes the same path', () => {
    const root = tempDir();
    const repo = join(root, 'repo');
    mkdirSync(join(repo, 'sessions'), { recursive: true });
    symlinkSync(repo, join(root, 'link'));
    expect(shardKey(join(root, 'link', 'sessions', 'a.jsonl'), repo)).toBe('sessions/a.jsonl');
    expect(shardKey('sessions/a.jsonl', join(root, 'link'))).toBe('sessions/a.jsonl');
  });

  it('puts a file in the same shard whatever else is listed, and spreads files over every shard', () => {
    const paths = Array.from({ length: 400 }, (_, i) => ({ path: `sessions/${i}.jsonl` }));
    const shard = { index: 2, total: 7 };
    const alone = paths.filter((path) => inShard([path], shard).length === 1);
    expect(inShard(paths, shard)).toEqual(alone);
    expect(inShard(paths.slice(100), shard)).toEqual(alone.filter((path) => paths.indexOf(path) >= 100));
    const counts = Array.from({ length: 7 }, (_, i) => inShard(paths, { index: i + 1, total: 7 }).length);
    expect(counts.every((count) => count > 30)).toBe(true);
    // Pinned: a hash that changed between versions would move files between shards of one CI run.
    expect([1, 2, 3, 4, 5].map((i) => shardOf(`sessions/${i}.jsonl`, 4, '/any'))).toEqual([1, 1, 2, 4, 1]);
  });

  it('the union of n shards, merged, is one full run: report for report, in every reporter, with its exit code', async () => {
    const dir = tempDir();
    const full = await runCli(['scan', ...INPUTS, '-r', 'json', '--jobs', '1']);
    const fullFile = join(dir, 'full.json');
    writeFileSync(fullFile, full.stdout);
    const expected = byPath(json(full.stdout));
    const reporters: Record<string, string> = {};
    for (const reporter of ['sarif', 'junit', 'github', 'stylish', 'ndjson']) reporters[reporter] = (await runCli(['merge-reports', fullFile, '-r', reporter])).stdout;
    for (const n of [1, 2, 3, 5]) {
      const shards: string[] = [];
      for (let i = 1; i <= n; i++) {
        const file = join(dir, `shard-${n}-${i}.json`);
        const shard = await runCli(['scan', ...INPUTS, '--shard', `${i}/${n}`, '-r', 'json', '-o', file, '--jobs', '1']);
        expect([0, 1]).toContain(shard.code);
        shards.push(file);
      }
      const merged = await runCli(['merge-reports', ...shards, '-r', 'json']);
      expect(merged.code, `n=${n}`).toBe(full.code);
      expect(json(merged.stdout), `n=${n}`).toEqual(expected);
      for (const [reporter, text] of Object.entries(reporters)) expect((await runCli(['merge-reports', ...shards, '-r', reporter])).stdout, `${reporter}, n=${n}`).toBe(text);
    }
    expect(expected.files.length).toBeGreaterThan(30);
  }, 240_000);

  it('sums warnings over shards for --max-warnings, and honours --exit-zero', async () => {
    const dir = tempDir();
    const shards = [1, 2].map((i) => join(dir, `s${i}.json`));
    for (const [i, file] of shards.entries()) await runCli(['scan', 'fixtures/demo', '--shard', `${i + 1}/2`, '-r', 'json', '-o', file, '--exit-zero']);
    const warnings = shards.reduce((sum, file) => sum + json(readFileSync(file, 'utf8')).summary.warnings!, 0);
    expect(warnings).toBeGreaterThan(1);
    const quietErrors = shards.map((file) => json(readFileSync(file, 'utf8')).summary.errors).reduce((a, b) => a + b, 0);
    const code = (limit: number) => runCli(['merge-reports', ...shards, '-r', 'json', '--max-warnings', String(limit)]).then((r) => r.code);
    expect(await code(warnings)).toBe(quietErrors > 0 ? 1 : 0);
    expect(await code(warnings - 1)).toBe(1);
    expect((await runCli(['merge-reports', ...shards, '--exit-zero'])).code).toBe(0);
  });

  it('bad values are one-line usage errors, before any work', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['scan', 'fixtures/pi', '--shard', '0/3'], /^--shard must be i\/n with 1 ≤ i ≤ n \(e\.g\. 2\/4\), not "0\/3"$/],
      [['scan', 'fixtures/pi', '--shard', 'half'], /^--shard must be i\/n with 1 ≤ i ≤ n \(e\.g\. 2\/4\), not "half"$/],
      [['merge-reports', 'a.json', '--max-warnings', 'many'], /^--max-warnings must be a whole number ≥ 0, not "many"$/],
      [['merge-reports', 'a.json', '-r', 'pdf'], /^unknown reporter "pdf" \(choose from: stylish, json, .*\)$/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(result.stderr.replace(/^transcript-doctor: /, '').trim()).toMatch(message);
    }
    const none = await runCli(['merge-reports']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'reports'");
  });

  it('shards standard input never, and says so', async () => {
    const result = await runCli(['scan', '-', '--shard', '1/2'], { input: readFileSync(join(ROOT, 'fixtures/pi/healthy.jsonl')) });
    expect(result).toMatchObject({ code: 2, stderr: 'transcript-doctor: --shard splits files; standard input (-) cannot be sharded\n' });
  });
});

describe('merge-reports refuses what is not one run', () => {
  it('unreadable, foreign, old, mismatched or overlapping reports exit 2 with one line', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.json');
    await runCli(['scan', 'fixtures/pi', '-r', 'json', '-o', good]);
    const document = json(readFileSync(good, 'utf8'));
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const config = write('td.json', JSON.stringify({ rules: { 'missing-tool-result': 'off' } }));
    const otherRules = join(dir, 'other-rules.json');
    await runCli(['scan', 'fixtures/demo', '-c', config, '-r', 'json', '-o', otherRules]);
    const { tool: _, ...withoutTool } = document;
    const cases: Array<[string[], RegExp]> = [
      [[join(dir, 'missing.json')], /^cannot read report .*missing\.json: no such file or directory$/],
      [[write('bad.json', '{"version": 1, "files": [')], /bad\.json: not valid JSON$/],
      [[join(ROOT, 'package.json')], /package\.json: not a transcript-doctor JSON report \(written by -r json\)$/],
      [[write('sarif.json', (await runCli(['scan', 'fixtures/pi', '-r', 'sarif'])).stdout)], /not a transcript-doctor JSON report/],
      [[write('old.json', JSON.stringify(withoutTool))], /old\.json: a JSON report without its tool version/],
      [[good, write('v2.json', JSON.stringify({ ...document, files: [], tool: { ...document.tool, version: '9.9.9' } }))], /v2\.json was written by transcript-doctor 9\.9\.9, .*good\.json by /],
      [[good, otherRules], /other-rules\.json and .*good\.json were written with different rules or configs/],
      [[good, good], /fixtures\/pi\/.* is in both .*good\.json and .*good\.json; shards must not overlap$/],
      [[write('finding.json', JSON.stringify({ ...document, files: [{ path: 'a', format: null, findings: [{ rule: 'x', severity: 'fatal', line: 1, pointer: '', message: '' }] }] }))], /files\[0\]: a finding without rule, severity or line$/],
    ];
    for (const [files, message] of cases) {
      const result = await runCli(['merge-reports', ...files]);
      expect(result.code, message.source).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(result.stderr.replace(/^transcript-doctor: /, '').trim()).toMatch(message);
    }
  });
});
