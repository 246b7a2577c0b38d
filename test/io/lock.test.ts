import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { assertNotLocked, liveLock, lockPaths, lockPid } from '../../src/io/lock.js';
import { UNREADABLE_LOCKS } from '../helpers/lock-bodies.js';
import { deadPid } from '../helpers/processes.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'td-lock-')));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});


async function refusal(path: string): Promise<string> {
  const error = await assertNotLocked(path, false).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as UserError).message;
}

describe('lockPid reads every pid shape a lock holds', () => {
  it.each([
    ['OpenClaw JSON', '{"pid":4242,"createdAt":"2026-03-10T08:00:00.000Z"}', 4242],
    ['pretty-printed, with starttime', '{\n  "pid": 4242,\n  "createdAt": "2026-03-10T08:00:00.000Z",\n  "starttime": 99\n}', 4242],
    ['pid as a string', '{"pid":"4242"}', 4242],
    ['pid as a string with whitespace', '{"pid":" 4242\\n"}', 4242],
    ['a bare pid file', '4242\n'],
    ['a bare JSON string', '"4242"'],
  ])('%s', (_name, text, pid = 4242) => {
    expect(lockPid(text)).toBe(pid);
  });

  it.each(UNREADABLE_LOCKS)('no pid in %s', (_name, text) => {
    expect(lockPid(text)).toBeUndefined();
  });
});

describe('assertNotLocked', () => {
  it('refuses a live pid written as a string, and ignores a dead one', async () => {
    const file = join(dir, 'session.jsonl');
    await writeFile(file, 'x\n');
    await writeFile(`${file}.lock`, JSON.stringify({ pid: ` ${process.pid} ` }));
    expect(await refusal(file)).toContain(`locked by running process ${process.pid}`);
    await writeFile(`${file}.lock`, JSON.stringify({ pid: String(await deadPid()) }));
    await expect(assertNotLocked(file, false)).resolves.toBeUndefined();
  });

  it('through a symlink, honours the lock beside the real file', async () => {
    const real = join(dir, 'sessions', 'abc.jsonl');
    await mkdir(join(dir, 'sessions'));
    await writeFile(real, 'x\n');
    await writeFile(`${real}.lock`, JSON.stringify({ pid: process.pid }));
    const link = join(dir, 'shortcut.jsonl');
    await symlink(real, link);
    expect(await refusal(link)).toBe(`${link} is locked by running process ${process.pid} (${real}.lock); retry when it is idle, or use --force`);
    await expect(assertNotLocked(link, true)).resolves.toBeUndefined();
  });

  it('through a symlinked folder, honours the lock OpenClaw takes in the real folder', async () => {
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'alias'));
    await writeFile(join(dir, 'real', 's.jsonl'), 'x\n');
    await writeFile(join(dir, 'real', 's.jsonl.lock'), JSON.stringify({ pid: process.pid }));
    expect(await refusal(join(dir, 'alias', 's.jsonl'))).toContain(join(dir, 'real', 's.jsonl.lock'));
  });

  it('lists the real lock, the real folder lock and the given one, without repeats', async () => {
    const real = join(dir, 'real.jsonl');
    await writeFile(real, 'x\n');
    await symlink(real, join(dir, 'link.jsonl'));
    expect(await lockPaths(join(dir, 'link.jsonl'))).toEqual([`${real}.lock`, `${join(dir, 'link.jsonl')}.lock`]);
    expect(await lockPaths(real)).toEqual([`${real}.lock`]);
  });
});

describe('a lock that is not a small regular file', () => {
  async function session(): Promise<string> {
    const file = join(dir, 's.jsonl');
    await writeFile(file, 'x\n');
    return file;
  }

  // A FIFO would block a blocking open (or a read) for good; devices never stop giving bytes.
  it.each([
    ['a FIFO with no writer', (lock: string) => execFileSync('mkfifo', [lock])],
    ['a symlink to /dev/zero', (lock: string) => symlink('/dev/zero', lock)],
    ['a symlink to /dev/urandom', (lock: string) => symlink('/dev/urandom', lock)],
    ['a folder', (lock: string) => mkdir(lock)],
  ])('%s is nobody\'s lock: never opened, not locked', async (_name, make) => {
    const file = await session();
    await make(`${file}.lock`);
    await expect(assertNotLocked(file, false)).resolves.toBeUndefined();
    expect(await liveLock(file)).toBeUndefined();
  });

  it('a lock file bigger than 64 KiB is refused by name, even padding a live pid, unless forced', async () => {
    const file = await session();
    await writeFile(`${file}.lock`, `${' '.repeat(70 * 1024)}{"pid":${process.pid}}`);
    expect(await refusal(file)).toBe(`${file}: its lock file ${file}.lock is 70 KiB, more than the 64 KiB it may be, so no agent wrote it; look at it and remove it, or use --force`);
    await expect(assertNotLocked(file, true)).resolves.toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('x\n');
  });

  it('a byte order mark before a live pid still locks', async () => {
    const file = await session();
    await writeFile(`${file}.lock`, `\uFEFF{"pid":${process.pid}}`);
    expect(await refusal(file)).toContain(`locked by running process ${process.pid}`);
  });
});
