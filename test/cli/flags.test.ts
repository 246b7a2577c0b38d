import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const BROKEN = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
const CLAUDE = join(ROOT, 'fixtures', 'claude-code', 'missing-tool-result.jsonl');
const copy = (file: string) => {
  const to = join(mkdtempSync(join(tmpdir(), 'td-flags-')), 'session.jsonl');
  copyFileSync(file, to);
  return to;
};

/** Flags as ESLint, Ruff and prettier users type them. */
describe('report format flags: -f, --format, --output-format are -r', () => {
  it.each([['-f'], ['--format'], ['--output-format'], ['-r']])('%s json gives the JSON report', async (flag) => {
    const result = await runCli(['scan', BROKEN, flag, 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].findings[0].rule).toBe('missing-tool-result');
    expect(result.stderr).toBe('');
  });

  it('repair and canonicalize take them too', async () => {
    const repaired = await runCli(['repair', '--dry-run', BROKEN, '--output-format', 'json']);
    expect(JSON.parse(repaired.stdout).files[0].changed).toBe(true);
    const checked = await runCli(['canonicalize', '--check', BROKEN, '-f', 'json']);
    expect(JSON.parse(checked.stdout).files).toHaveLength(1);
  });

  it('an unknown report format is a usage error naming the choices', async () => {
    const result = await runCli(['scan', BROKEN, '-f', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown reporter "xml" \(choose from: .*json/);
  });
});

describe('--agent names the transcript format, in every command that reads transcripts', () => {
  it('scan and repair --agent override detection', async () => {
    const scanned = JSON.parse((await runCli(['scan', CLAUDE, '--agent', 'pi', '-f', 'json'])).stdout);
    expect(scanned.files[0].format).toBe('pi');
    const repaired = JSON.parse((await runCli(['repair', '--dry-run', CLAUDE, '--agent', 'claude-code', '-f', 'json'])).stdout);
    expect(repaired.files[0].format).toBe('claude-code');
  });

  it('verify --agent too (no judge is reached: nothing listens on port 9)', async () => {
    const args = ['verify', '--all', '--no-cache', '--retries', '0', '--model', 'openai/x', '--base-url', 'http://127.0.0.1:9/v1', CLAUDE, '-f', 'json'];
    const detected = JSON.parse((await runCli(args, { env: { OPENAI_API_KEY: 'x' } })).stdout);
    expect(detected.files[0].format).toBe('claude-code');
    const forced = JSON.parse((await runCli([...args, '--agent', 'pi'], { env: { OPENAI_API_KEY: 'x' } })).stdout);
    expect(forced.files[0].format).toBe('pi');
  });

  it('an agent goes by its full name or its short one (claude, gemini, copilot, qwen), in every command', async () => {
    const full = JSON.parse((await runCli(['scan', CLAUDE, '--agent', 'claude-code', '-f', 'json'])).stdout);
    const short = JSON.parse((await runCli(['scan', CLAUDE, '--agent', 'claude', '-f', 'json'])).stdout);
    expect(short.files[0].format).toBe('claude-code');
    expect(short.files[0].findings).toEqual(full.files[0].findings);
    const unknown = await runCli(['scan', CLAUDE, '--agent', 'cursor']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Allowed choices are pi, claude-code, .*gemini-cli/);
  });

  it('a transcript format given to --format (its old meaning) still works, with a note', async () => {
    const result = await runCli(['scan', CLAUDE, '--format', 'pi', '-f', 'json']);
    expect(JSON.parse(result.stdout).files[0].format).toBe('pi');
    expect(result.stderr).toBe('transcript-doctor: --format pi names a transcript format; use --agent pi (--format chooses the report format, as in ESLint)\n');
    expect((await runCli(['scan', CLAUDE, '--format', 'pi', '--agent', 'codex'])).code).toBe(2);
  });
});

describe('scan --fix is repair --in-place of what scan found', () => {
  it('repairs in place with a backup, reports what is left, and exits as repair does', async () => {
    const file = copy(BROKEN);
    const before = readFileSync(file);
    const result = await runCli(['scan', '--fix', file, '-f', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).files[0].findings).toEqual([]);
    expect(readFileSync(file).equals(before)).toBe(false);
    const backups = readdirSync(join(file, '..')).filter((name) => name.startsWith('session.jsonl.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(file, '..', backups[0]!)).equals(before)).toBe(true);
    expect((await runCli(['scan', file])).code).toBe(0);
  });

  it('--mode goes with it; it never guesses which sessions to change, and refuses what it cannot do', async () => {
    const file = copy(BROKEN);
    expect((await runCli(['scan', '--fix', '--mode', 'synthetic', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"toolResult"');
    for (const args of [['scan', '--fix'], ['scan', '--fix', '-l', file], ['scan', '--fix', '--shard', '1/2', file], ['scan', '--mode', 'discard', file]]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(existsSync(file)).toBe(true);
  });
});

describe('repair --diff and canonicalize --diff print what would change, and write nothing', () => {
  it('a unified diff of the lines that would change; exit 1 when some would, 0 when none would', async () => {
    const file = copy(BROKEN);
    const before = readFileSync(file);
    const result = await runCli(['repair', '--diff', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^--- a\/.*session\.jsonl\n\+\+\+ b\/.*session\.jsonl\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('-{'))).toHaveLength(3);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(join(file, '..'))).toEqual(['session.jsonl']);
    expect(await runCli(['repair', '--diff', join(ROOT, 'fixtures', 'pi', 'healthy.jsonl')])).toMatchObject({ code: 0, stdout: '' });
    expect((await runCli(['canonicalize', '--diff', join(ROOT, 'fixtures', 'pi', 'non-canonical-tool-call.jsonl')])).code).toBe(1);
  });

  it('refuses standard input and a target to write to', async () => {
    for (const args of [['repair', '--diff', '-'], ['repair', '--diff', '--in-place', BROKEN], ['repair', '--diff', '--dry-run', BROKEN]]) {
      const result = await runCli(args, { input: '' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('-o is the report file in every command; --out is where repair and canonicalize write the transcript', () => {
  it('repair -o writes the report there and the repaired transcript to --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-flags-'));
    const result = await runCli(['repair', BROKEN, '--out', join(dir, 'fixed.jsonl'), '-o', join(dir, 'report.json'), '-f', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).files[0].changed).toBe(true);
    expect((await runCli(['scan', join(dir, 'fixed.jsonl')])).code).toBe(0);
  });

  it('a text report aimed at a .jsonl file is the old -o habit: refused before anything is written, naming --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-flags-'));
    const result = await runCli(['repair', BROKEN, '-o', join(dir, 'fixed.jsonl')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`transcript-doctor: -o ${join(dir, 'fixed.jsonl')} names the report file (as in ESLint and Ruff); write the transcript with --out ${join(dir, 'fixed.jsonl')}\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--out - is standard output, as with no --out; a file named - is ./-', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-flags-'));
    const [dash, plain] = await Promise.all([runCli(['repair', BROKEN, '--out', '-'], { cwd: dir }), runCli(['repair', BROKEN], { cwd: dir })]);
    expect(dash).toMatchObject({ code: 0, stdout: plain.stdout, stderr: plain.stderr });
    expect(dash.stdout).toMatch(/^\{"type":"session"/);
    expect(readdirSync(dir)).toEqual([]);
    const two = await runCli(['repair', BROKEN, CLAUDE, '--out', '-'], { cwd: dir });
    expect(two).toMatchObject({ code: 2, stdout: '', stderr: 'transcript-doctor: 2 transcripts to repair: use --in-place, --out <folder> or --dry-run\n' });
    expect((await runCli(['repair', BROKEN, '--out', './-'], { cwd: dir })).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['-']);
  });

  it('--output (the old name of --out) still writes the transcript, with a note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-flags-'));
    const result = await runCli(['canonicalize', BROKEN, '--output', join(dir, 'same.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('--output is now --out');
    expect(readFileSync(join(dir, 'same.jsonl'))).toEqual(readFileSync(BROKEN));
  });

  it('-m is --mode wherever it exists; verify names its model with --model only', async () => {
    const result = await runCli(['verify', '-m', 'openai/x', BROKEN]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '-m'");
  });
});
