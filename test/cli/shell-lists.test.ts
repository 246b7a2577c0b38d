import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeProvider } from '../verify/llm/fake-provider.js';
import { ROOT, runCli } from './run-cli.js';

const BROKEN = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
const HEALTHY = join(ROOT, 'fixtures', 'pi', 'healthy.jsonl');
const WARNING_ONLY = join(ROOT, 'fixtures', 'pi', 'empty-text-block.jsonl');

const tempDir = () => mkdtempSync(join(tmpdir(), 'td-lists-'));

/** Names a shell script and xargs must carry intact. */
const ODD_NAMES = ['with space.jsonl', 'new\nline.jsonl', "quote'and\"dq.jsonl", '-leading-dash.jsonl', 'tab\there.jsonl'];

function sessions(dir: string): { broken: string[]; healthy: string } {
  mkdirSync(dir, { recursive: true });
  const broken = ODD_NAMES.map((name) => join(dir, name));
  for (const file of broken) copyFileSync(BROKEN, file);
  const healthy = join(dir, 'healthy one.jsonl');
  copyFileSync(HEALTHY, healthy);
  return { broken, healthy };
}

describe('scan -l / --files-with-errors', () => {
  it('prints only the failing paths, one per line, and exits as grep -l does: 0 when it listed one, 1 when none', async () => {
    const result = await runCli(['scan', '-l', BROKEN, HEALTHY, WARNING_ONLY]);
    expect(result).toMatchObject({ code: 0, stdout: `${BROKEN}\n`, stderr: '' });
    const clean = await runCli(['scan', '--files-with-errors', HEALTHY]);
    expect(clean).toMatchObject({ code: 1, stdout: '' });
    expect((await runCli(['scan', '-l', BROKEN, join(tempDir(), 'missing.jsonl')])).code).toBe(2);
  });

  it('the README pipelines work whether or not anything is broken', async () => {
    const dir = tempDir();
    const copy = join(dir, 'broken.jsonl');
    copyFileSync(BROKEN, copy);
    const td = `"${process.execPath}" "${join(ROOT, 'bin', 'transcript-doctor.js')}"`;
    const pipe = (folder: string) => spawnSync('sh', ['-c', `${td} scan -l -0 "${folder}" | xargs -0 -r ${td} repair --in-place --no-backup`], { env: { ...process.env, CI: '1' } });
    expect(pipe(dir).status).toBe(0);
    expect((await runCli(['scan', copy])).code).toBe(0);
    expect(pipe(dir).status).toBe(0);
    const listed = join(dir, 'broken.txt');
    const chain = (folder: string) => spawnSync('sh', ['-c', `${td} scan -l "${folder}" > "${listed}" && ${td} repair --dry-run --files-from "${listed}"`], { env: { ...process.env, CI: '1' } });
    expect(chain(dir).status).toBe(1);
    copyFileSync(BROKEN, copy);
    expect(chain(dir).status).toBe(0);
  });

  it('counts warnings once the run has more than --max-warnings; --exit-zero changes the exit code only', async () => {
    const warnings = JSON.parse((await runCli(['scan', WARNING_ONLY, '-r', 'json'])).stdout).summary.warnings as number;
    expect(warnings).toBeGreaterThan(0);
    expect((await runCli(['scan', '-l', '--max-warnings', '0', BROKEN, HEALTHY, WARNING_ONLY])).stdout).toBe(`${BROKEN}\n${WARNING_ONLY}\n`);
    expect((await runCli(['scan', '-l', '--max-warnings', String(warnings), HEALTHY, WARNING_ONLY]))).toMatchObject({ code: 1, stdout: '' });
    expect(await runCli(['scan', '-l', '--exit-zero', BROKEN, HEALTHY])).toMatchObject({ code: 0, stdout: `${BROKEN}\n` });
  });

  it('-0 ends each path with NUL; reports still go to their files', async () => {
    const dir = tempDir();
    const { broken } = sessions(join(dir, 's'));
    const report = join(dir, 'report.json');
    const result = await runCli(['scan', '-l', '-0', join(dir, 's'), '-r', 'json', '--output-file', `json:${report}`]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\0').slice(0, -1).sort()).toEqual([...broken].sort());
    expect(JSON.parse(readFileSync(report, 'utf8')).summary.files).toBe(ODD_NAMES.length + 1);
  });

  it('refuses a reporter that would mix into the list, and -0 with nothing to separate', async () => {
    const mixed = await runCli(['scan', '-l', '-r', 'json', BROKEN]);
    expect(mixed).toMatchObject({ code: 2, stdout: '' });
    expect(mixed.stderr).toBe('transcript-doctor: -l prints the failing paths on standard output; send reports to files with --output-file <reporter>:<path>\n');
    const lone = await runCli(['scan', '-0', BROKEN]);
    expect(lone.code).toBe(2);
    expect(lone.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('scan -l -0 | xargs -0 transcript-doctor repair --in-place: exactly that pipeline, on odd names', () => {
    const home = tempDir();
    const { broken, healthy } = sessions(join(home, '.pi', 'agent', 'sessions'));
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(join(ROOT, 'bin', 'transcript-doctor.js'), join(bin, 'transcript-doctor'));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}`, CI: '1' };
    for (const name of ['OPENCLAW_STATE_DIR', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR']) delete env[name];
    const before = readFileSync(healthy);
    const pipeline = spawnSync('sh', ['-c', 'transcript-doctor scan -l -0 | xargs -0 transcript-doctor repair --in-place'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(pipeline.status, pipeline.stderr).toBe(0);
    const after = spawnSync('sh', ['-c', 'transcript-doctor scan -r json'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(after.status).toBe(0);
    expect(JSON.parse(after.stdout).summary).toMatchObject({ files: broken.length + 1, errors: 0 });
    expect(readFileSync(healthy)).toEqual(before);
    // Each repaired file kept its backup; the healthy one was never named, so it has none.
    const backups = readdirSync(join(home, '.pi', 'agent', 'sessions')).filter((name) => name.includes('.bak-'));
    expect(backups.map((name) => name.replace(/\.bak-.*$/, '')).sort()).toEqual([...ODD_NAMES].sort());
  });
});

describe('--files-from', () => {
  it('reads paths one per line, or NUL-separated with -0, from a file or standard input', async () => {
    const dir = tempDir();
    const { broken, healthy } = sessions(join(dir, 's'));
    const plain = broken.filter((path) => !path.includes('\n'));
    writeFileSync(join(dir, 'list.txt'), [...plain, healthy, ''].join('\n'));
    const fromFile = await runCli(['scan', '--files-from', join(dir, 'list.txt'), '-r', 'json']);
    expect(JSON.parse(fromFile.stdout).files.map((f: { path: string }) => f.path)).toEqual([...plain, healthy]);
    const fromStdin = await runCli(['scan', '--files-from', '-', '-0', '-l', '-0'], { input: [...broken, healthy].join('\0') + '\0' });
    expect(fromStdin.stdout.split('\0').slice(0, -1)).toEqual(broken);
    // A process substitution is a pipe, not a file.
    const piped = spawnSync('bash', ['-c', `node bin/transcript-doctor.js scan -l --files-from <(printf '%s\\0' "$@") -0`, 'list', ...broken], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    expect(piped.stdout).toBe(broken.map((path) => `${path}\0`).join(''));
  });

  it('an empty list checks nothing and exits 0, even for repair', async () => {
    const scan = await runCli(['scan', '--files-from', '-', '-r', 'json'], { input: '' });
    expect(scan.code).toBe(0);
    expect(JSON.parse(scan.stdout).summary.files).toBe(0);
    expect(await runCli(['repair', '--files-from', '-', '--in-place'], { input: '\n' })).toMatchObject({ code: 0 });
  });

  it('repair and canonicalize take lists too', async () => {
    const dir = tempDir();
    const { broken } = sessions(join(dir, 's'));
    const repaired = await runCli(['repair', '--in-place', '--no-backup', '--files-from', '-', '-0', '-r', 'json'], { input: broken.join('\0') });
    expect(repaired.code).toBe(0);
    expect(JSON.parse(repaired.stdout).summary).toMatchObject({ files: broken.length, changed: broken.length, errors: 0 });
    const check = await runCli(['canonicalize', '--check', '--files-from', '-', '-0'], { input: broken.join('\0') });
    expect(check.code).toBe(0);
  });

  it('verify takes a list too, judged by a server on 127.0.0.1', async () => {
    const server = await startFakeProvider(() => ({ text: 'PASS' }));
    try {
      const args = ['verify', '--files-from', '-', '--model', 'anthropic/claude-sonnet-4-5', '--base-url', server.url, '--no-cache', '-r', 'json'];
      const result = await runCli(args, { input: 'fixtures/verify/good-answer.jsonl\n', env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-000' } });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).summary).toMatchObject({ files: 1, pass: 1 });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('bad lists are one-line usage errors', async () => {
    const dir = tempDir();
    const cases: Array<[string[], string, string?]> = [
      [['scan', '--files-from', join(dir, 'missing.txt')], `transcript-doctor: cannot read --files-from ${join(dir, 'missing.txt')}: no such file or directory\n`],
      [['scan', '--files-from', '-'], 'transcript-doctor: --files-from - holds NUL bytes: add -0 to read a NUL-separated list\n', `${BROKEN}\0${HEALTHY}`],
      [['scan', '--files-from', '-', '-'], 'transcript-doctor: --files-from - reads the list from standard input, so - cannot also be a transcript\n'],
      [['scan', '--files-from', '-'], `transcript-doctor: ${join(dir, 'nope.jsonl')}: no such file or directory\n`, join(dir, 'nope.jsonl')],
      [['scan', '--files-from', '/dev/zero', '-r', 'json'], 'transcript-doctor: --files-from /dev/zero is a character device, not a file holding a list of paths\n'],
      [['scan', '--files-from', '-'], 'transcript-doctor: --files-from -: an entry is longer than 65536 bytes; this is not a list of paths\n', 'x'.repeat(70_000)],
      [['scan', '--files-from', ROOT], `transcript-doctor: --files-from ${ROOT} is a folder, not a file holding a list of paths\n`],
      [['repair', '-0', BROKEN, '--dry-run'], 'transcript-doctor: -0 goes with --files-from (a NUL-separated list in) or, for scan, -l (a NUL-separated list out)\n'],
    ];
    for (const [args, stderr, input] of cases) expect(await runCli(args, { input })).toMatchObject({ code: 2, stdout: '', stderr });
  });
});
