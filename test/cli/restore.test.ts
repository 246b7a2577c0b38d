import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionWriter } from '../../src/session-writer/session-writer.js';
import { deadPid } from '../helpers/processes.js';
import { runCli } from './run-cli.js';

const OLD = '{"type":"session","version":3,"id":"s-old","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/work"}\n';
const OLDER = '{"type":"session","version":3,"id":"s-older","timestamp":"2026-11-19T08:00:00.000Z","cwd":"/work"}\n';
const NOW = '{"type":"session","version":3,"id":"s-now","timestamp":"2026-11-21T08:00:00.000Z","cwd":"/work"}\n';
/** A backup's time stamp, days before now. */
const stampDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().replace(/[:.]/g, '-');
const OLDEST_STAMP = stampDaysAgo(6);
const NEWEST = `session.jsonl.bak-${stampDaysAgo(5)}`;
const OLDEST = `session.jsonl.bak-${OLDEST_STAMP}`;

/** A session with two backups: the newest holds OLD, the oldest OLDER. */
function sessionWithBackups(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-restore-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, NOW);
  writeFileSync(join(dir, NEWEST), OLD);
  writeFileSync(join(dir, OLDEST), OLDER);
  return { dir, file };
}

const backupsIn = (dir: string) => readdirSync(dir).filter((name) => name.includes('.bak-')).sort();

describe('transcript-doctor restore', () => {
  it('puts back the newest backup and keeps the file it replaced as a new backup', async () => {
    const { dir, file } = sessionWithBackups();
    const result = await runCli(['restore', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^restored .*session\\.jsonl from ${NEWEST}; the file it replaced is kept as .*session\\.jsonl\\.bak-`));
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    const made = backupsIn(dir).filter((name) => name !== NEWEST && name !== OLDEST);
    expect(made).toHaveLength(1);
    expect(readFileSync(join(dir, made[0]!), 'utf8')).toBe(NOW);
    // The backups it restored from stay.
    expect(readFileSync(join(dir, NEWEST), 'utf8')).toBe(OLD);
  });

  it('is undone by restoring again (the newest backup is then the file it replaced)', async () => {
    const { file } = sessionWithBackups();
    expect((await runCli(['restore', file])).code).toBe(0);
    expect((await runCli(['restore', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(NOW);
  });

  it('undoes repair --in-place byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-restore-repair-'));
    const file = join(dir, 'broken.jsonl');
    const original = readFileSync('fixtures/pi/missing-tool-result.jsonl');
    writeFileSync(file, original);
    expect((await runCli(['repair', '--in-place', file])).code).toBe(0);
    expect(readFileSync(file)).not.toEqual(original);
    expect((await runCli(['restore', file])).code).toBe(0);
    expect(readFileSync(file)).toEqual(original);
  });

  it('--backup picks one by its time stamp or its name', async () => {
    const { file } = sessionWithBackups();
    expect((await runCli(['restore', '--backup', OLDEST_STAMP, file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(OLDER);
    expect((await runCli(['restore', '--backup', NEWEST, file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  it('--list shows every backup newest first with its size and age, and changes nothing', async () => {
    const { dir, file } = sessionWithBackups();
    const result = await runCli(['restore', '--list', file]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `${NEWEST}  ${OLD.length} B  5 days ago`,
      `${OLDEST}  ${OLDER.length} B  6 days ago`,
      `2 backups (${OLD.length + OLDER.length} B); in-place writes keep the newest 3 (the default; --keep-backups or "keepBackups" in the config changes it), removing older ones once a write has succeeded`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe(NOW);
    expect(backupsIn(dir)).toEqual([OLDEST, NEWEST]);
  });

  it('brings back a deleted session, with the mode of its backup', async () => {
    const { dir, file } = sessionWithBackups();
    rmSync(file);
    chmodSync(join(dir, NEWEST), 0o600);
    const result = await runCli(['restore', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\(the file was missing\)/);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(backupsIn(dir)).toEqual([OLDEST, NEWEST]);
  });

  it('restores through a symlink: the link stays a link, the real file and its backups are used', async () => {
    const { file } = sessionWithBackups();
    const link = join(mkdtempSync(join(tmpdir(), 'td-restore-link-')), 'linked.jsonl');
    symlinkSync(file, link);
    expect((await runCli(['restore', link])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readFileSync(link, 'utf8')).toBe(OLD);
  });

  it('refuses while a live agent holds the lock, and --force restores anyway', async () => {
    const { dir, file } = sessionWithBackups();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    const refused = await runCli(['restore', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^transcript-doctor: .*session\\.jsonl is locked by running process ${process.pid} .*--force\\n$`));
    expect(readFileSync(file, 'utf8')).toBe(NOW);
    expect(backupsIn(dir)).toEqual([OLDEST, NEWEST]);
    expect((await runCli(['restore', '--force', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  it('is refused while a session writer holds the session', async () => {
    const { file } = sessionWithBackups();
    const writer = await openSessionWriter(file, { format: 'pi' });
    try {
      const refused = await runCli(['restore', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`locked by running process ${process.pid}`));
    } finally {
      await writer.close();
    }
    expect(readFileSync(file, 'utf8')).toBe(NOW);
    expect((await runCli(['restore', file])).code).toBe(0);
  });

  it('is not stopped by the lock of a dead process', async () => {
    const { file } = sessionWithBackups();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: await deadPid() }));
    expect((await runCli(['restore', file])).code).toBe(0);
  });

  it.each<[string, (dir: string) => void, string[], RegExp]>([
    ['no backups', (dir: string) => [NEWEST, OLDEST].forEach((name) => rmSync(join(dir, name))), [], /no backups of .*session\.jsonl \(none named session\.jsonl\.bak-<time> in /],
    ['an unknown backup name', () => {}, ['--backup', '2020-01-01T00-00-00-000Z'], new RegExp(`no backup named "2020-01-01T00-00-00-000Z"; there are 2: ${NEWEST}, ${OLDEST} \\(--list shows them all\\)`)],
    ['--list with --backup', () => {}, ['--list', '--backup', NEWEST], /--list shows the backups and restores nothing; drop --backup/],
    ['standard input', () => {}, ['-'], /restore needs the path of a session file/],
  ])('exits 2 with one line for %s, and changes nothing', async (_, prepare, args, message) => {
    const { dir, file } = sessionWithBackups();
    prepare(dir);
    const before = backupsIn(dir);
    const result = await runCli(['restore', ...args, ...(args.includes('-') ? [] : [file])]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(NOW);
    expect(backupsIn(dir)).toEqual(before);
  });

  it('exits 2 for a folder, a dangling link, a FIFO and a missing folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-restore-odd-'));
    mkdirSync(join(dir, 'folder.jsonl'));
    writeFileSync(join(dir, 'folder.jsonl.bak-2026-11-21T09-30-00-000Z'), OLD);
    symlinkSync(join(dir, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    for (const [name, message] of [
      ['folder.jsonl', /is a folder/],
      ['dangling.jsonl', /is a link to a file that does not exist/],
      ['fifo.jsonl', /fifo\.jsonl is not a regular file/],
      [join('missing', 'x.jsonl'), /cannot read .*missing: no such file or directory/],
    ] as const) {
      const result = await runCli(['restore', join(dir, name)]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(message);
    }
    expect(existsSync(join(dir, 'gone.jsonl'))).toBe(false);
  });

  it('ignores names that only look like backups, and files that are not regular', async () => {
    const { dir, file } = sessionWithBackups();
    writeFileSync(join(dir, 'session.jsonl.bak-1'), 'not a stamp');
    writeFileSync(join(dir, 'session.jsonl.bak-2099-01-01T00-00-00-000Z.txt'), 'not a stamp either');
    symlinkSync('/etc/hostname', join(dir, 'session.jsonl.bak-2099-01-01T00-00-00-000Z'));
    const result = await runCli(['restore', '--list', file]);
    expect(result.stdout.trimEnd().split('\n').slice(0, -1).map((line) => line.split(' ')[0])).toEqual([NEWEST, OLDEST]);
  });
});
