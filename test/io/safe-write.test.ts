import { randomBytes } from 'node:crypto';
import { appendFile, chmod, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../src/errors.js';
import { AtomicFile, assertNotLocked, stampOf } from '../../src/io/safe-write.js';
import { deadPid } from '../helpers/processes.js';
import { UNREADABLE_LOCKS } from '../helpers/lock-bodies.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-safe-write-'));
});

afterEach(async () => {
  vi.useRealTimers();
  await chmod(dir, 0o755);
  await rm(dir, { recursive: true, force: true });
});

/** The one-line UserError a promise rejects with. */
async function userError(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).message).not.toContain('\n');
  return error as UserError;
}

async function session(content: string | Buffer, mode = 0o644): Promise<string> {
  const path = join(dir, 'session.jsonl');
  await writeFile(path, content);
  await chmod(path, mode);
  return path;
}

async function replace(target: string, content: string, options: Parameters<AtomicFile['commit']>[0]) {
  const file = await AtomicFile.create(target);
  await file.write(content);
  await file.finish();
  return { file, result: await file.commit(options) };
}


describe('stampOf', () => {
  it('records size, modification time and inode', async () => {
    const path = await session('{"a":1}\n');
    const info = await stat(path);
    expect(await stampOf(path)).toEqual({ size: 8, mtimeMs: info.mtimeMs, ino: info.ino });
  });

  it('reports a missing file as a UserError', async () => {
    const error = await userError(stampOf(join(dir, 'missing.jsonl')));
    expect(error.message).toMatch(/^cannot read .*missing\.jsonl: no such file or directory$/);
  });
});

describe('AtomicFile', () => {
  it('puts the temp file beside the target with a hidden, unique name', async () => {
    const target = await session('old\n');
    const file = await AtomicFile.create(target);
    expect(file.target).toBe(target);
    expect(basename(file.tempPath)).toMatch(new RegExp(`^\\.session\\.jsonl\\.transcript-doctor-${process.pid}-[0-9a-f]+\\.tmp$`));
    expect(await readdir(dir)).toContain(basename(file.tempPath));
    await file.discard();
  });

  it('replaces the content and keeps the mode', async () => {
    const target = await session('old\n', 0o600);
    const { file, result } = await replace(target, 'new\n', { backup: false });
    expect(await readFile(target, 'utf8')).toBe('new\n');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(result).toEqual({});
    expect(await readdir(dir)).toEqual(['session.jsonl']);
    await file.discard();
    expect(await readFile(target, 'utf8')).toBe('new\n');
  });

  it('creates a new file with 0o644 minus the umask', async () => {
    const target = join(dir, 'fresh.jsonl');
    await replace(target, 'x\n', { backup: false });
    expect((await stat(target)).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('keeps the original byte for byte as a timestamped backup', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T01:50:00.123Z'));
    const original = Buffer.concat([Buffer.from('{"a":"\u00e9"}\r\n'), randomBytes(4096), Buffer.from([0xff, 0xfe, 0x00])]);
    const target = await session(original, 0o640);
    const { file, result } = await replace(target, 'repaired\n', { backup: true });
    expect(result.backupPath).toBe(`${target}.bak-2026-11-22T01-50-00-123Z`);
    expect(result.backupPath).not.toBe(file.tempPath);
    expect((await readFile(result.backupPath!)).equals(original)).toBe(true);
    expect((await stat(result.backupPath!)).mode & 0o777).toBe(0o640);
    expect(await readFile(target, 'utf8')).toBe('repaired\n');
    expect((await readdir(dir)).sort()).toEqual(['session.jsonl', basename(result.backupPath!)]);
  });

  it('leaves no backup with backup: false', async () => {
    const target = await session('old\n');
    await replace(target, 'new\n', { backup: false });
    expect((await readdir(dir)).filter((name) => name.includes('.bak-'))).toEqual([]);
  });

  it('refuses when the target changed after it was stamped, and writes nothing', async () => {
    const target = await session('{"n":1}\n');
    const expected = await stampOf(target);
    const file = await AtomicFile.create(target);
    await file.write('{"n":1,"fixed":true}\n');
    await file.finish();
    await appendFile(target, '{"n":2}\n');
    const error = await userError(file.commit({ backup: true, expected }));
    expect(error.message).toBe(`${target} changed while it was being repaired; nothing was written`);
    expect(await readFile(target, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('commits when the target still matches its stamp', async () => {
    const target = await session('{"n":1}\n');
    const expected = await stampOf(target);
    await replace(target, '{"n":1,"fixed":true}\n', { backup: false, expected });
    expect(await readFile(target, 'utf8')).toBe('{"n":1,"fixed":true}\n');
  });

  it('writes many chunks in order, copying each before the caller reuses it', async () => {
    const target = await session('old\n');
    const file = await AtomicFile.create(target);
    const reused = Buffer.alloc(1000);
    const expected: Buffer[] = [];
    for (let i = 0; i < 5000; i++) {
      reused.fill(i % 251);
      await file.write(reused);
      expected.push(Buffer.from(reused));
      const text = `line ${i} é\n`;
      await file.write(text);
      expected.push(Buffer.from(text));
      if (i % 1000 === 0) {
        const big = randomBytes(3 << 20);
        await file.write(big);
        expected.push(big);
      }
    }
    await file.commit({ backup: false });
    expect((await readFile(target)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('writes a list of pieces as one chunk, in order: staged when small, by writev when large, past the limit of pieces per call', async () => {
    const target = await session('old\n');
    const file = await AtomicFile.create(target);
    const expected: Buffer[] = [];
    const write = async (chunk: Buffer | string | Buffer[]) => {
      await file.write(chunk);
      expected.push(...[chunk].flat().map((piece) => Buffer.from(piece)));
    };
    await write('head\n');
    await write([Buffer.from('a'), Buffer.alloc(0), Buffer.from('b\n')]);
    await write([randomBytes(700 << 10), Buffer.from('between\n'), randomBytes(600 << 10)]);
    await write(Array.from({ length: 3000 }, (_, i) => Buffer.from(`piece ${i} ${'x'.repeat(i % 700)}\n`)));
    await write([]);
    await write('tail\n');
    await file.commit({ backup: false });
    expect((await readFile(target)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('carries on where a short writev stopped, mid-piece', async () => {
    const target = await session('old\n');
    const file = await AtomicFile.create(target);
    const handle = (file as unknown as { handle: { writev: (pieces: Buffer[], position?: number) => Promise<{ bytesWritten: number }> } }).handle;
    const writev = handle.writev.bind(handle);
    // At most 1,000 bytes a call, as a nearly full pipe or disk may take.
    let calls = 0;
    handle.writev = async (pieces, position) => {
      calls += 1;
      let room = 1000;
      const taken = pieces.map((piece) => {
        const part = piece.subarray(0, room);
        room -= part.length;
        return part;
      });
      return writev(taken.filter((part) => part.length > 0), position);
    };
    const pieces = [randomBytes(1 << 20), Buffer.from('middle'), randomBytes(2500)];
    await file.write(pieces);
    await file.commit({ backup: false });
    expect((await readFile(target)).equals(Buffer.concat(pieces))).toBe(true);
    expect(calls).toBeGreaterThan(1000);
  });

  it('follows a symlinked target so the link survives', async () => {
    const real = await session('old\n');
    const link = join(dir, 'link.jsonl');
    await symlink(real, link);
    await replace(link, 'new\n', { backup: false });
    expect(await readlink(link)).toBe(real);
    expect(await readFile(real, 'utf8')).toBe('new\n');
  });

  it('removes the temp file and any backup when the commit fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T01:50:00.123Z'));
    const target = await session('old\n');
    const taken = `${target}.bak-2026-11-22T01-50-00-123Z`;
    await writeFile(taken, 'someone else\n');
    const file = await AtomicFile.create(target);
    await file.write('new\n');
    const error = await userError(file.commit({ backup: true }));
    expect(error.message).toBe(`cannot write ${target}: file already exists`);
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readFile(taken, 'utf8')).toBe('someone else\n');
    expect((await readdir(dir)).sort()).toEqual(['session.jsonl', basename(taken)]);
  });

  it('reports a folder it cannot write to as a one-line UserError and leaves the target alone', async () => {
    const target = await session('old\n');
    await chmod(dir, 0o555);
    const probe = join(dir, 'probe');
    const writable = await writeFile(probe, '').then(
      () => true,
      () => false,
    );
    if (writable) {
      // Running as root: permissions do not stop writes, so check the same path with a folder that is missing.
      await rm(probe);
      const error = await userError(AtomicFile.create(join(dir, 'gone', 'session.jsonl')));
      expect(error.message).toMatch(/^cannot write .*gone\/session\.jsonl: no such file or directory$/);
    } else {
      const error = await userError(AtomicFile.create(target));
      expect(error.message).toBe(`cannot write ${target}: permission denied`);
    }
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('reports a missing folder as a one-line UserError', async () => {
    const target = join(dir, 'missing', 'session.jsonl');
    const error = await userError(AtomicFile.create(target));
    expect(error.message).toBe(`cannot write ${target}: no such file or directory`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('discard removes the temp file, can be called twice, and ends the file', async () => {
    const target = await session('old\n');
    const file = await AtomicFile.create(target);
    await file.write('partial');
    await file.discard();
    await file.discard();
    expect(await readdir(dir)).toEqual(['session.jsonl']);
    expect(await readFile(target, 'utf8')).toBe('old\n');
    await expect(file.write('more')).rejects.toThrow(/already finished or discarded/);
    await expect(file.commit({ backup: false })).rejects.toThrow(/already committed or discarded/);
  });
});

describe('assertNotLocked', () => {
  const lock = (target: string, body: string) => writeFile(`${target}.lock`, body);

  it('passes when there is no lock', async () => {
    await expect(assertNotLocked(await session('x\n'), false)).resolves.toBeUndefined();
  });

  it('refuses a lock held by a live process, unless forced', async () => {
    const target = await session('x\n');
    await lock(target, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString(), maxHoldMs: 60_000 }));
    const error = await userError(assertNotLocked(target, false));
    expect(error.message).toContain(String(process.pid));
    expect(error.message).toContain(`${target}.lock`);
    await expect(assertNotLocked(target, true)).resolves.toBeUndefined();
  });

  it('ignores a lock left by a process that has exited', async () => {
    const target = await session('x\n');
    await lock(target, JSON.stringify({ pid: await deadPid(), createdAt: new Date().toISOString() }));
    await expect(assertNotLocked(target, false)).resolves.toBeUndefined();
  });

  it.each(UNREADABLE_LOCKS)('ignores a lock it cannot parse (%s)', async (_name, body) => {
    const target = await session('x\n');
    await lock(target, body);
    await expect(assertNotLocked(target, false)).resolves.toBeUndefined();
  });
});
