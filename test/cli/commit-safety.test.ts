import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const BROKEN = 'fixtures/pi/missing-tool-result.jsonl';
const TEMP = /\.(?:transcript-doctor|td)-\d+-[0-9a-f]+\.(?:tmp|hold)$/;

const folders: string[] = [];

function folder(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), `td-commit-${prefix}-`));
  folders.push(path);
  return path;
}

afterAll(() => {
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

function copy(dir: string, name = 'session.jsonl', fixture = BROKEN): string {
  const file = join(dir, name);
  copyFileSync(fixture, file);
  return file;
}

describe('locks and outputs that would overwrite an input', () => {
  it('--out onto the input is refused even when spelled differently or linked, and the input is untouched', async () => {
    const dir = folder('onto-input');
    const file = copy(dir);
    const original = readFileSync(file);
    symlinkSync(file, join(dir, 'alias.jsonl'));
    for (const output of [file, join(dir, '.', 'session.jsonl'), join(dir, 'alias.jsonl')]) {
      const result = await runCli(['repair', '--out', output, file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`transcript-doctor: --out ${output} is the input ${file}; use --in-place to rewrite it (with its lock check and backup)\n`);
      expect(readFileSync(file)).toEqual(original);
    }
  });

  it('a live pid written as a string blocks --in-place', async () => {
    const file = copy(folder('string-pid'));
    const original = readFileSync(file);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: `${process.pid}`, createdAt: new Date().toISOString() }, null, 2));
    const result = await runCli(['repair', '--in-place', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`locked by running process ${process.pid}`);
    expect(readFileSync(file)).toEqual(original);
  });

  it('--in-place through a symlink honours the real file’s lock', async () => {
    const file = copy(folder('real'));
    const original = readFileSync(file);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid }));
    const link = join(folder('link'), 'linked.jsonl');
    symlinkSync(file, link);
    const result = await runCli(['repair', '--in-place', link]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`(${file}.lock)`);
    expect(readFileSync(file)).toEqual(original);
  });
});

describe('--out folders', () => {
  it('one input and a folder (a trailing slash, or one that exists) puts the output in it under the input\'s name, as cp does', async () => {
    const src = folder('out-one');
    const file = copy(src);
    const fresh = join(folder('out-fresh'), 'fixed') + '/';
    expect((await runCli(['repair', '--out', fresh, file])).code).toBe(0);
    expect((await runCli(['scan', join(fresh, 'session.jsonl')])).code).toBe(0);
    const existing = folder('out-existing');
    expect((await runCli(['repair', '--out', existing, file])).code).toBe(0);
    expect(readdirSync(existing)).toEqual(['session.jsonl']);
    const piped = await runCli(['repair', '--out', existing, '-'], { input: readFileSync(file) });
    expect(piped).toMatchObject({ code: 2, stderr: 'transcript-doctor: --out names a folder, and standard input has no file name to give the output in it; name the output file\n' });
    expect((await runCli(['repair', '--out', src, file])).code).toBe(2); // the input's own folder: that is --in-place
  });

  function inputs(): { src: string; a: string; b: string } {
    const src = folder('out-src');
    mkdirSync(join(src, 'sub'));
    const a = copy(src, 'a.jsonl');
    const b = copy(join(src, 'sub'), 'b.jsonl', 'fixtures/pi/healthy.jsonl');
    chmodSync(a, 0o600);
    chmodSync(b, 0o640);
    return { src, a, b };
  }

  it('a folder that holds the inputs is refused', async () => {
    const { src, a, b } = inputs();
    const before = [readFileSync(a), readFileSync(b)];
    for (const output of [src, join(src, '..')]) {
      const result = await runCli(['repair', '--out', output, a, b]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^transcript-doctor: --out .* holds the input .*a\.jsonl; choose a folder outside the inputs, or use --in-place\n$/);
    }
    expect([readFileSync(a), readFileSync(b)]).toEqual(before);
    expect(readdirSync(src).sort()).toEqual(['a.jsonl', 'sub']);
  });

  it('a symlink at an output is replaced, never written through; outputs keep their source’s mode', async () => {
    const { a, b } = inputs();
    const out = folder('out');
    const victim = join(folder('outside'), 'victim.jsonl');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(out, 'a.jsonl'));
    mkdirSync(join(out, 'sub'));
    symlinkSync(victim, join(out, 'sub', 'b.jsonl'));
    const result = await runCli(['repair', '--out', out, a, b]);
    expect(result.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(out, 'a.jsonl')).isFile()).toBe(true);
    expect(statSync(join(out, 'a.jsonl')).mode & 0o7777).toBe(0o600);
    // b needed no repair: copied, with its mode, through no link either.
    expect(readFileSync(join(out, 'sub', 'b.jsonl'))).toEqual(readFileSync(b));
    expect(statSync(join(out, 'sub', 'b.jsonl')).mode & 0o7777).toBe(0o640);
  });

  it('a symlinked folder inside -o is refused and nothing is written through it', async () => {
    const { a, b } = inputs();
    const out = folder('out');
    const away = folder('away');
    symlinkSync(away, join(out, 'sub'));
    const result = await runCli(['repair', '--out', out, a, b]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`transcript-doctor: ${join(out, 'sub')} is a symbolic link inside the -o folder; refusing to write through it\n`);
    expect(readdirSync(away)).toEqual([]);
  });

  it('-o for one file keeps a private transcript private', async () => {
    const file = copy(folder('private'));
    chmodSync(file, 0o600);
    const out = join(folder('out'), 'fixed.jsonl');
    expect((await runCli(['repair', '--out', out, file])).code).toBe(0);
    expect(statSync(out).mode & 0o7777).toBe(0o600);
  });
});

describe('--in-place', () => {
  it('keeps setuid and setgid bits', async () => {
    const file = copy(folder('suid'));
    chmodSync(file, 0o6640);
    const wanted = statSync(file).mode & 0o7777;
    const result = await runCli(['repair', '--in-place', file]);
    expect(result.code).toBe(0);
    expect(statSync(file).mode & 0o7777).toBe(wanted);
  });

  it('killed at random moments, leaves the original or the repair, and the next run sweeps its temp files', async () => {
    const dir = folder('kills');
    const file = join(dir, 'session.jsonl');
    const original = brokenSession(500);
    writeFileSync(file, original);
    expect((await runCli(['repair', '--in-place', '--no-backup', file])).code).not.toBe(2);
    const repaired = readFileSync(file);
    expect(repaired.equals(original)).toBe(false);
    for (const delay of [0, 150, 300]) {
      writeFileSync(file, original);
      await killAfter(['repair', '--in-place', '--no-backup', file], delay);
      const now = readFileSync(file);
      expect(now.equals(original) || now.equals(repaired)).toBe(true);
    }
    writeFileSync(file, original);
    await runCli(['repair', '--in-place', '--no-backup', file]);
    expect(readdirSync(dir).filter((name) => TEMP.test(name))).toEqual([]);
    expect(readFileSync(file)).toEqual(repaired);
  });
});

describe('standard input spool', () => {
  it('is removed on SIGTERM (exit 143), and a kill -9 leaves one the next run sweeps', async () => {
    const tmp = folder('spool-tmp');
    const spools = () => readdirSync(tmp).filter((name) => name.startsWith('transcript-doctor-'));
    const terminated = await signalWhileSpooling(tmp, 'SIGTERM');
    expect(terminated).toEqual({ spooling: 1, code: 143 });
    expect(spools()).toEqual([]);
    const killed = await signalWhileSpooling(tmp, 'SIGKILL');
    expect(killed.spooling).toBe(1);
    expect(spools()).toHaveLength(1);
    const next = await runCli(['repair', '-'], { input: readFileSync(BROKEN), env: { TMPDIR: tmp } });
    expect(next.code).toBe(0);
    expect(spools()).toEqual([]);
  });
});

/**
 * A pi session whose tool call never got a result, followed by `turns` healthy turns (about
 * 250 kB for 500), so a kill can land while the temp file is being written.
 */
function brokenSession(turns: number): Buffer {
  const lines = [JSON.stringify({ type: 'session', version: 3, id: 'c0ffee00-0000-4000-8000-000000000001', timestamp: '2026-03-10T08:00:00.000Z', cwd: '/workspace/demo' })];
  let parentId: string | null = null;
  const push = (fields: Record<string, unknown>): void => {
    const id = (0x10000000 + lines.length).toString(16);
    lines.push(JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-03-10T08:00:01.000Z', ...fields }));
    parentId = id;
  };
  const assistant = (content: unknown[], stopReason: string) => ({ message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason, timestamp: 1773129601000 } });
  const user = (text: string) => ({ message: { role: 'user', content: [{ type: 'text', text }], timestamp: 1773129601000 } });
  push(user('Read the config.'));
  push(assistant([{ type: 'toolCall', id: 'toolu_01NeverAnswered', name: 'read', arguments: { path: 'config.json' } }], 'toolUse'));
  for (let turn = 0; turn < turns; turn++) {
    push(user(`Question ${turn}: ${'context '.repeat(30)}`));
    push(assistant([{ type: 'text', text: `Answer ${turn}: ${'detail '.repeat(30)}` }], 'stop'));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Runs the CLI and SIGKILLs it after `ms`; resolves when it is gone. */
function killAfter(args: string[], ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), ...args], { cwd: ROOT, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Starts `repair -` with standard input left open, waits for its spool folder, then signals it. */
function signalWhileSpooling(tmp: string, signal: NodeJS.Signals): Promise<{ spooling: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'repair', '-'], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } });
    child.on('error', reject);
    child.stdin.write(readFileSync(BROKEN));
    let spooling = 0;
    const poll = setInterval(() => {
      spooling = readdirSync(tmp).filter((name) => name.startsWith('transcript-doctor-')).length;
      if (spooling > 0) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 5);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ spooling, code });
    });
  });
}
