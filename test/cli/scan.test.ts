import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, Session } from '../helpers/session.js';
import { ROOT, runCli } from './run-cli.js';

const HEALTHY = 'fixtures/pi/healthy.jsonl';
const BROKEN = 'fixtures/pi/missing-tool-result.jsonl';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'td-cli-'));
}

describe('transcript-doctor scan', () => {
  it('exits 0 and says so for a healthy transcript', async () => {
    const result = await runCli(['scan', HEALTHY]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('No problems in 1 file');
  });

  it('exits 1 and shows rule, line, ids and the provider error for a broken one', async () => {
    const result = await runCli(['scan', BROKEN]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ 5 {2}error {3}.*toolu_01tZGVPXuYgjzJCO3MLwqKyv has no tool result\. {2}missing-tool-result/);
    expect(result.stdout).toContain('Anthropic: messages.');
    expect(result.stdout).toMatch(/1 problem \(1 error, 0 warnings\) in 1 of 1 file/);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });

  it('refuses to write its report over an input (exit 2, the input untouched)', async () => {
    const file = join(tempDir(), 'session.jsonl');
    writeFileSync(file, readFileSync(HEALTHY));
    const result = await runCli(['scan', file, '-o', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`transcript-doctor: --output-file ${file} is the input ${file}; refusing before anything is read or written\n`);
    expect(readFileSync(file)).toEqual(readFileSync(HEALTHY));
  });

  it('writes one JSON document with the documented shape', async () => {
    const result = await runCli(['scan', BROKEN, HEALTHY, '--reporter', 'json']);
    const report = JSON.parse(result.stdout);
    expect(report.version).toBe(1);
    expect(report.summary).toEqual({ files: 2, errors: 1, warnings: 0 });
    expect(report.files.map((f: { path: string; format: string }) => [f.path, f.format])).toEqual([
      [BROKEN, 'pi'],
      [HEALTHY, 'pi'],
    ]);
    expect(Object.keys(report.files[0].findings[0])).toEqual(['rule', 'severity', 'line', 'pointer', 'message', 'providerError']);
    expect(report.files[0].findings[0]).toMatchObject({ rule: 'missing-tool-result', severity: 'error', line: 5, pointer: '/message/content/3' });
  });

  it('reads standard input with -', async () => {
    const jsonl = new Session().user().calls(call('toolu_x')).user('hello?').jsonl();
    const result = await runCli(['scan', '-', '-r', 'json'], { input: jsonl });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.files[0]).toMatchObject({ path: '-', format: 'pi' });
    expect(report.files[0].findings[0].rule).toBe('missing-tool-result');
  });

  it('writes the report to --output-file and nothing to stdout', async () => {
    const out = join(tempDir(), 'report.json');
    const result = await runCli(['scan', BROKEN, '-r', 'json', '--output-file', out]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.errors).toBe(1);
  });

  it('--quiet leaves out warnings', async () => {
    const noisy = await runCli(['scan', 'fixtures/demo', '-r', 'json']);
    const quiet = await runCli(['scan', 'fixtures/demo', '-r', 'json', '--quiet']);
    expect(JSON.parse(noisy.stdout).summary.warnings).toBeGreaterThan(0);
    expect(JSON.parse(quiet.stdout).summary).toMatchObject({ warnings: 0, errors: JSON.parse(noisy.stdout).summary.errors });
  });

  it('colours only when asked, and never with NO_COLOR or --no-color', async () => {
    expect((await runCli(['scan', BROKEN], { env: { FORCE_COLOR: '1' } })).stdout).toMatch(/\u001b\[31m/);
    expect((await runCli(['scan', BROKEN], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toMatch(/\u001b\[/);
    expect((await runCli(['scan', BROKEN, '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(/\u001b\[/);
  });

  it('searches directories recursively for *.jsonl, skipping node_modules, and expands globs', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    const healthy = new Session().user().reply().jsonl();
    writeFileSync(join(dir, 'a', 'b', 'one.jsonl'), healthy);
    writeFileSync(join(dir, 'two.jsonl'), healthy);
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'node_modules', 'x', 'skip.jsonl'), 'garbage');
    const byDir = JSON.parse((await runCli(['scan', dir, '-r', 'json'])).stdout);
    expect(byDir.files.map((f: { path: string }) => f.path)).toEqual([join(dir, 'a', 'b', 'one.jsonl'), join(dir, 'two.jsonl')]);
    const byGlob = JSON.parse((await runCli(['scan', `${dir}/*.jsonl`, '-r', 'json'])).stdout);
    expect(byGlob.files.map((f: { path: string }) => f.path)).toEqual([join(dir, 'two.jsonl')]);
  });

  it('with no paths, scans the standard session folders that exist and says which', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.openclaw', 'agents', 'main', 'sessions'), { recursive: true });
    writeFileSync(join(home, '.openclaw', 'agents', 'main', 'sessions', 's1.jsonl'), readFileSync('fixtures/pi/missing-tool-result.jsonl'));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Searching ${join(home, '.openclaw', 'agents', 'main', 'sessions')}`);
    expect(JSON.parse(result.stdout).summary.files).toBe(1);
  });

  it('with no paths and no session folders, says where it looked and exits 2', async () => {
    const home = tempDir();
    const result = await runCli(['scan'], { env: { HOME: home, QWEN_HOME: '', QWEN_RUNTIME_DIR: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^transcript-doctor: no session folders found \(searched .*\.pi\/agent\/sessions, .*\.claude\/projects, .*\/sessions, .*\/archived_sessions, .*\.gemini\/tmp, .*\.copilot\/session-state, .*\.qwen\/projects\); pass files or folders to scan\n$/);
  });

  it('never crashes on binary garbage', async () => {
    const dir = tempDir();
    const file = join(dir, 'garbage.jsonl');
    writeFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a, 0xc3, 0x28, 0x0a, 0x5b, 0x31, 0x5d]));
    const result = await runCli(['scan', file, '-r', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.stdout).files[0].findings.map((f: { line: number; rule: string }) => `${f.line} ${f.rule}`);
    expect(findings).toEqual(['1 nul-bytes', '1 unknown-format', '2 invalid-json', '2 invalid-utf8', '3 missing-final-newline']);
  });
});

describe('usage errors exit 2 with one line and no stack trace', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['missing file', ['scan', 'nope.jsonl'], /^transcript-doctor: nope\.jsonl: no such file or directory\n$/],
    ['glob without matches', ['scan', 'fixtures/**/*.nothing'], /no files match/],
    ['unknown option', ['scan', '--frobnicate', HEALTHY], /unknown option '--frobnicate'/],
    ['bad reporter', ['scan', '-r', 'xml', HEALTHY], /unknown reporter "xml" \(choose from: stylish, json, sarif, github, junit, ndjson, html\)/],
    ['unknown command', ['scna'], /unknown command 'scna'/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('--help and --version exit 0', async () => {
    const help = await runCli(['scan', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings), 2 usage error');
    const version = await runCli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n` });
  });
});

describe('several reporters at once', () => {
  it('each reporter writes to its own file, the unpaired one to stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-reporters-'));
    const result = await runCli(['scan', BROKEN, '-r', 'stylish', '-r', 'sarif', '-r', 'junit', '--output-file', `sarif:${join(dir, 'r.sarif')}`, '--output-file', `junit:${join(dir, 'r.xml')}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('missing-tool-result');
    expect(JSON.parse(readFileSync(join(dir, 'r.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain('<testsuites');
  });

  it('a pair for a reporter that is not asked for is a usage error', async () => {
    const result = await runCli(['scan', BROKEN, '--output-file', 'sarif:x.sarif']);
    expect(result).toMatchObject({ code: 2 });
    expect(result.stderr).toBe('transcript-doctor: --output-file sarif:x.sarif: add --reporter sarif too\n');
  });
});
