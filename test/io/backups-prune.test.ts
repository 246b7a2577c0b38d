import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile, stampOf } from '../../src/io/safe-write.js';

const OLD_STAMPS = ['2026-11-20T08-00-00-000Z', '2026-11-21T08-00-00-000Z', '2026-11-22T08-00-00-000Z', '2026-11-23T08-00-00-000Z'];

/** A session with four old backups beside it. */
function sessionWithBackups(): { dir: string; target: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-prune-'));
  const target = join(dir, 's.jsonl');
  writeFileSync(target, 'before\n');
  for (const stamp of OLD_STAMPS) writeFileSync(`${target}.bak-${stamp}`, `old ${stamp}\n`);
  return { dir, target };
}

const backupsIn = (dir: string) => readdirSync(dir).filter((name) => name.includes('.bak-')).sort();

describe('a commit removes old backups only once its write has succeeded', () => {
  it('E17 — a commit refused because the file changed since it was read removes no backup', async () => {
    const { dir, target } = sessionWithBackups();
    const expected = await stampOf(target);
    const file = await AtomicFile.create(target);
    await file.write(Buffer.from('after\n'));
    appendFileSync(target, 'a line the agent wrote meanwhile\n');
    await expect(file.commit({ backup: true, keepBackups: 1, expected })).rejects.toThrow(/changed/);
    expect(backupsIn(dir)).toEqual(OLD_STAMPS.map((stamp) => `s.jsonl.bak-${stamp}`));
    expect(readFileSync(target, 'utf8')).toBe('before\na line the agent wrote meanwhile\n');
  });

  it('E17 — a commit refused by its last check removes no backup', async () => {
    const { dir, target } = sessionWithBackups();
    const file = await AtomicFile.create(target);
    await file.write(Buffer.from('after\n'));
    const refuse = async () => {
      throw new Error('locked');
    };
    await expect(file.commit({ backup: true, keepBackups: 1, expected: await stampOf(target), lastCheck: refuse })).rejects.toThrow(/locked/);
    expect(backupsIn(dir)).toHaveLength(4);
  });

  it('E17 — a commit that succeeds keeps its own backup and the newest others up to the bound', async () => {
    const { dir, target } = sessionWithBackups();
    const file = await AtomicFile.create(target);
    await file.write(Buffer.from('after\n'));
    const { backupPath, prunedBackups } = await file.commit({ backup: true, keepBackups: 2, expected: await stampOf(target) });
    expect(readFileSync(backupPath!, 'utf8')).toBe('before\n');
    expect(prunedBackups!.map((path) => path.slice(dir.length + 1)).sort()).toEqual(OLD_STAMPS.slice(0, 3).map((stamp) => `s.jsonl.bak-${stamp}`));
    expect(backupsIn(dir)).toEqual([`s.jsonl.bak-${OLD_STAMPS[3]}`, backupPath!.slice(dir.length + 1)].sort());
  });

  it('without keepBackups every backup stays (restore, settings files)', async () => {
    const { dir, target } = sessionWithBackups();
    const file = await AtomicFile.create(target);
    await file.write(Buffer.from('after\n'));
    const { prunedBackups } = await file.commit({ backup: true });
    expect(prunedBackups).toBeUndefined();
    expect(backupsIn(dir)).toHaveLength(5);
  });
});
