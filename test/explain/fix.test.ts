import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { call, Session } from '../helpers/session.js';
import { FakeHome, toolId } from './fake-home.js';

// `explain --fix` is `repair --in-place` on the session it found: same lock check, backup and
// atomic write; a refusal leaves the file as it was and says why in one line.

let home: FakeHome;
let file: string;
let id: string;
let before: string;

const error = () => `No tool output found for function call ${id}.`;

function broken(seed: string): string {
  id = toolId(seed);
  return new Session().user('build it').calls(call(id, 'exec')).user('and?').reply('Built.').jsonl();
}

function backups(of: string): string[] {
  return readdirSync(dirname(of)).filter((name) => name.startsWith(`${basename(of)}.bak`));
}

beforeEach(() => {
  home = new FakeHome();
  home.fill(12);
  file = home.write(home.openclaw, 'e5f6-broken.jsonl', broken('fix'));
  before = readFileSync(file, 'utf8');
});
afterEach(() => rmSync(home.home, { recursive: true, force: true }));

describe('explain --fix', () => {
  it('repairs the session it found in place, keeps a backup, and the error is gone', async () => {
    const result = await runCli(['explain', error(), '--fix'], { env: home.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ {2}done {5}repaired: .*\(backup: .*\); no errors left\n/);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
    expect(backups(file).map((name) => readFileSync(join(dirname(file), name), 'utf8'))).toEqual([before]);
    const scan = await runCli(['scan', file], { env: home.env });
    expect(scan.code).toBe(0);
    const again = await runCli(['explain', error()], { env: home.env });
    expect(again.code).toBe(1);
    // The default repair drops the unanswered call, so its id is in no session any more (the backup is not a session).
    expect(again.stdout).toContain(`no session file contains ${id}`);
  });

  it('gives the repair in the JSON document', async () => {
    const result = await runCli(['explain', error(), '--fix', '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { fixed: { changed: boolean; backupPath: string; remaining: number; counts: Record<string, number> } };
    expect(out.fixed).toMatchObject({ changed: true, remaining: 0 });
    expect(readFileSync(out.fixed.backupPath, 'utf8')).toBe(before);
  });

  it('refuses a session a live agent holds: the file is untouched, the explanation printed, one line says why (exit 2)', async () => {
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    const result = await runCli(['explain', error(), '--fix'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`  session  ${file}`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^transcript-doctor: .*${process.pid}`));
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(backups(file)).toEqual([]);
  });

  it('follows a symlinked session to its file and leaves the link a link', async () => {
    const elsewhere = join(home.home, 'archive');
    mkdirSync(elsewhere);
    const real = join(elsewhere, 'real.jsonl');
    writeFileSync(real, broken('linked'));
    const original = readFileSync(real, 'utf8');
    const link = join(home.openclaw, 'linked.jsonl');
    symlinkSync(real, link);
    const result = await runCli(['explain', error(), '--fix'], { env: home.env });
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(real));
    expect(readFileSync(real, 'utf8')).not.toBe(original);
    expect((await runCli(['scan', real])).code).toBe(0);
  });

  it('does nothing without a session: exit 1, no file written', async () => {
    const result = await runCli(['explain', 'No tool output found for function call call_Nowhere000000000000000.', '--fix'], { env: home.env });
    expect(result.code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(backups(file)).toEqual([]);
  });
});
