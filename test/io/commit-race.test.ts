import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../src/errors.js';
import { AtomicFile, stampOf } from '../../src/io/safe-write.js';

/**
 * A writer racing the commit, made deterministic: the hook runs inside rename(), just before the
 * temp file replaces the session, where a real writer's open-write-close would land by chance.
 */
const hooks = vi.hoisted(() => ({
  aroundRename: undefined as undefined | ((rename: () => Promise<void>) => Promise<void>),
  noLinks: false,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      const hook = hooks.aroundRename;
      hooks.aroundRename = undefined;
      if (hook === undefined) return actual.rename(from, to);
      return hook(() => actual.rename(from, to));
    },
    link: async (existing: string, name: string) => {
      if (hooks.noLinks) throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      return actual.link(existing, name);
    },
  };
});

const ORIGINAL = '{"type":"session","id":"s"}\n{"n":1}\n';
const REPAIRED = '{"type":"session","id":"s"}\n{"n":1,"fixed":true}\n';
const APPENDED = '{"n":2,"appended":true}\n';

let dir: string;
let target: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-commit-race-'));
  target = join(dir, 'session.jsonl');
  await writeFile(target, ORIGINAL);
  await chmod(target, 0o640);
});

afterEach(async () => {
  hooks.aroundRename = undefined;
  hooks.noLinks = false;
  await rm(dir, { recursive: true, force: true });
});

async function commitRepaired(backup: boolean): Promise<unknown> {
  const expected = await stampOf(target);
  const file = await AtomicFile.create(target);
  await file.write(REPAIRED);
  return file.commit({ backup, expected }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

function expectPutBack(error: unknown): void {
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).message).toBe(
    `${target} was written to while it was being replaced; it is back as it was, with the new lines, and nothing was changed (retry when it is idle)`,
  );
}

describe('a line appended while the commit renames', () => {
  it.each([
    ['with a backup link', true, false],
    ['without a backup (a hidden second name holds the original)', false, false],
    ['on a filesystem without hard links (the original is copied back)', true, true],
    ['without a backup or hard links', false, true],
  ])('%s: the original and the line are put back, nothing else is left', async (_name, backup, noLinks) => {
    hooks.noLinks = noLinks;
    hooks.aroundRename = async (rename) => {
      appendFileSync(target, APPENDED);
      await rename();
    };
    expectPutBack(await commitRepaired(backup));
    expect(await readFile(target, 'utf8')).toBe(ORIGINAL + APPENDED);
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('a writer that opened before the rename and writes after it is caught too, with lines that reached the new file kept after it', async () => {
    hooks.aroundRename = async (rename) => {
      const early = openSync(target, 'a');
      await rename();
      appendFileSync(target, '{"n":3,"into":"the new file"}\n');
      setImmediate(() => {
        writeSync(early, APPENDED);
        closeSync(early);
      });
    };
    expectPutBack(await commitRepaired(false));
    expect(await readFile(target, 'utf8')).toBe(`${ORIGINAL}${APPENDED}{"n":3,"into":"the new file"}\n`);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('a line appended just after the rename lands in the repaired file, which is kept', async () => {
    hooks.aroundRename = async (rename) => {
      await rename();
      appendFileSync(target, APPENDED);
    };
    expect(await commitRepaired(false)).toBeUndefined();
    expect(await readFile(target, 'utf8')).toBe(REPAIRED + APPENDED);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('with no writer the repair is committed and the backup holds the original', async () => {
    expect(await commitRepaired(true)).toBeUndefined();
    expect(await readFile(target, 'utf8')).toBe(REPAIRED);
    const backups = (await readdir(dir)).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(dir, backups[0]!), 'utf8')).toBe(ORIGINAL);
  });
});

describe('the last check before the rename', () => {
  it('a lock taken mid-run refuses the commit and writes nothing', async () => {
    const expected = await stampOf(target);
    const file = await AtomicFile.create(target);
    await file.write(REPAIRED);
    const refusal = new UserError('locked now');
    await expect(file.commit({ backup: true, expected, lastCheck: () => Promise.reject(refusal) })).rejects.toBe(refusal);
    expect(await readFile(target, 'utf8')).toBe(ORIGINAL);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });

  it('a file replaced by another of the same size and time is refused', async () => {
    const expected = await stampOf(target);
    const file = await AtomicFile.create(target);
    await file.write(REPAIRED);
    const other = join(dir, 'other');
    await writeFile(other, ORIGINAL);
    const { rename, utimes } = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    await utimes(other, new Date(), new Date(expected.mtimeMs));
    await rename(other, target);
    await expect(file.commit({ backup: false, expected })).rejects.toThrow(`${target} changed while it was being repaired; nothing was written`);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });
});
