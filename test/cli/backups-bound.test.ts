import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const BROKEN = readFileSync(join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl'), 'utf8');
/** The session as the agent left it before repair number `i`: broken again, and different each time. */
const damaged = (i: number) => BROKEN.replace('/workspace/demo-project', `/workspace/demo-project-${i}`);
const backupsIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('session.jsonl.bak-')).sort();
const stamp = (at: string) => `session.jsonl.bak-${at}`;

function session(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-backups-bound-'));
  return { dir, file: join(dir, 'session.jsonl') };
}

/** Five rounds of: the agent breaks the session, repair --in-place mends it (with `args`). */
async function fiveRepairs(file: string, args: string[] = [], cwd = ROOT): Promise<string[]> {
  const outputs: string[] = [];
  for (let i = 1; i <= 5; i++) {
    writeFileSync(file, damaged(i));
    const result = await runCli(['repair', '--in-place', ...args, file], { cwd });
    expect(result.code, result.stderr).toBe(0);
    outputs.push(result.stdout);
  }
  return outputs;
}

describe('in-place writes keep a bounded number of backups', () => {
  it('E17 — five in-place repairs keep the newest 3 backups, each the state its repair replaced; restore undoes the last', async () => {
    const { dir, file } = session();
    const said = await fiveRepairs(file);
    const kept = backupsIn(dir);
    expect(kept).toHaveLength(3);
    expect(kept.map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([damaged(3), damaged(4), damaged(5)]);
    // The fourth and fifth repairs each removed one, and said so.
    expect(said.map((text) => /1 older removed/.test(text))).toEqual([false, false, false, true, true]);
    const repaired = readFileSync(file, 'utf8');
    expect((await runCli(['restore', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(damaged(5));
    // restore removes nothing: the file it replaced is one more backup.
    expect(backupsIn(dir)).toHaveLength(4);
    expect(backupsIn(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toContain(repaired);
  });

  it('E17 — --keep-backups sets the bound, over the config\'s "keepBackups"; scan --fix takes it too', async () => {
    const { dir, file } = session();
    writeFileSync(join(dir, 'transcript-doctor.config.json'), '{"keepBackups": 2}');
    await fiveRepairs(file, [], dir);
    expect(backupsIn(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([damaged(4), damaged(5)]);
    await fiveRepairs(file, ['--keep-backups', '4'], dir);
    expect(backupsIn(dir)).toHaveLength(4);
    writeFileSync(file, damaged(6));
    expect((await runCli(['scan', '--fix', '--keep-backups', '1', file], { cwd: dir })).code).toBe(0);
    expect(backupsIn(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([damaged(6)]);
  });

  it('E17 — restore --list says how many are kept, what sets it, and which the next write removes', async () => {
    const { dir, file } = session();
    writeFileSync(file, damaged(0));
    for (const at of ['2026-11-20T08-00-00-000Z', '2026-11-21T08-00-00-000Z', '2026-11-22T08-00-00-000Z']) writeFileSync(join(dir, stamp(at)), damaged(1));
    const byDefault = (await runCli(['restore', '--list', file], { cwd: dir })).stdout.trimEnd().split('\n');
    expect(byDefault).toHaveLength(4);
    expect(byDefault[0]).not.toMatch(/removed/);
    expect(byDefault[1]).not.toMatch(/removed/);
    expect(byDefault[2]).toMatch(new RegExp(`^${stamp('2026-11-20T08-00-00-000Z')} .* removed by the next in-place write$`));
    expect(byDefault[3]).toMatch(/^3 backups \(.*\); in-place writes keep the newest 3 \(the default; --keep-backups or "keepBackups" in the config changes it\)/);
    const config = join(dir, 'transcript-doctor.config.json');
    writeFileSync(config, '{"keepBackups": 1}');
    const configured = (await runCli(['restore', '--list', file], { cwd: dir })).stdout.trimEnd().split('\n');
    expect(configured.filter((line) => line.endsWith('removed by the next in-place write'))).toHaveLength(3);
    expect(configured.at(-1)).toContain(`keep the newest 1 ("keepBackups" in ${config})`);
  });

  it('E17 — the backup a write just made stays, whatever stamps the others carry (a clock set back)', async () => {
    const { dir, file } = session();
    for (const at of ['2099-01-01T00-00-00-000Z', '2099-01-02T00-00-00-000Z']) writeFileSync(join(dir, stamp(at)), 'from a clock in the future\n');
    writeFileSync(file, damaged(1));
    expect((await runCli(['repair', '--in-place', '--keep-backups', '1', file])).code).toBe(0);
    const kept = backupsIn(dir);
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe(damaged(1));
  });

  it('E17 — a write that is refused removes no backup', async () => {
    const { dir, file } = session();
    for (const at of ['2026-11-20T08-00-00-000Z', '2026-11-21T08-00-00-000Z', '2026-11-22T08-00-00-000Z', '2026-11-23T08-00-00-000Z']) writeFileSync(join(dir, stamp(at)), 'old\n');
    writeFileSync(file, damaged(1));
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    const refused = await runCli(['repair', '--in-place', '--keep-backups', '1', file]);
    expect(refused.code).toBe(2);
    expect(backupsIn(dir)).toHaveLength(4);
    expect(readFileSync(file, 'utf8')).toBe(damaged(1));
  });

  it('E17 — a bound below 1, or one with nothing to keep, is a usage error (one line, exit 2, nothing written)', async () => {
    const { dir, file } = session();
    writeFileSync(file, damaged(1));
    const cases: [string[], RegExp][] = [
      [['repair', '--in-place', '--keep-backups', '0', file], /--keep-backups must be a whole number ≥ 1, not "0"/],
      [['repair', '--in-place', '--keep-backups', 'x', file], /--keep-backups must be a whole number ≥ 1/],
      [['repair', '--dry-run', '--keep-backups', '2', file], /--keep-backups is for --in-place writes/],
      [['scan', '--keep-backups', '2', file], /--keep-backups goes with --fix/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^transcript-doctor: ${message.source}.*\\n$`));
    }
    writeFileSync(join(dir, 'transcript-doctor.config.json'), '{"keepBackups": 0}');
    const badConfig = await runCli(['repair', '--in-place', file], { cwd: dir });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/"keepBackups" must be a whole number ≥ 1/);
    expect(readFileSync(file, 'utf8')).toBe(damaged(1));
    expect(backupsIn(dir)).toEqual([]);
  });
});
