import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEnv } from '../helpers/agent-env.js';
import { claudeSession, codexSession, copilotSession, geminiSession, openclawSession, piSession, qwenSession } from '../helpers/agent-homes.js';
import { runCli } from './run-cli.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-locate-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fake home holding damaged sessions of every agent, and the project folder the commands run in. */
function fakeHome() {
  const home = mkdtempSync(join(root, 'home-'));
  const project = join(home, 'work', 'shop');
  mkdirSync(project, { recursive: true });
  const minute = (path: string, n: number) => {
    const time = new Date(Date.UTC(2026, 4, 5, 9, n));
    utimesSync(path, time, time);
    return path;
  };
  const files = {
    pi: minute(piSession(home, project, '019a0001-aaaa-7bbb-8ccc-000000000001'), 1),
    openclaw: minute(openclawSession(home, 'main', '019a0002-aaaa-4bbb-8ccc-000000000002'), 2),
    claude: minute(claudeSession(home, project, '2b7c0001-aaaa-4bbb-8ccc-000000000003'), 3),
    claudeElsewhere: minute(claudeSession(home, '/work/other', '2b7c0002-aaaa-4bbb-8ccc-000000000004'), 9),
    codex: minute(codexSession(home, project, '019a0005-aaaa-7bbb-8ccc-000000000005'), 4),
    gemini: minute(geminiSession(home, 'shop', 'cf27a59b-989b-4efb-922c-3d471bb9ed3a'), 5),
    copilot: minute(copilotSession(home, '7d07bcc0-aaaa-4bbb-8ccc-000000000006'), 6),
    qwen: minute(qwenSession(home, project, 'a1b2c3d4-aaaa-4bbb-8ccc-000000000007'), 7),
  };
  return { home, project, files, run: (args: string[]) => runCli(args, { env: agentEnv(home), cwd: project }) };
}

describe('transcript-doctor locate', () => {
  const { project, files, run } = fakeHome();

  it('prints the session a unique start of an id names', async () => {
    expect(await run(['locate', '2b7c0001'])).toEqual({ code: 0, stdout: `${files.claude}\n`, stderr: '' });
    expect((await run(['locate', '7d07bcc0-aaaa-4bbb-8ccc-000000000006'])).stdout).toBe(`${files.copilot}\n`);
  });

  it('latest --agent X: the newest session of that agent, in this folder\'s project when the agent files by project', async () => {
    const latest = async (agent: string) => (await run(['locate', 'latest', '--agent', agent])).stdout;
    expect(await latest('pi')).toBe(`${files.pi}\n`);
    expect(await latest('openclaw')).toBe(`${files.openclaw}\n`);
    expect(await latest('claude-code')).toBe(`${files.claude}\n`);
    expect(await latest('codex')).toBe(`${files.codex}\n`);
    expect(await latest('qwen-code')).toBe(`${files.qwen}\n`);
    expect(await latest('copilot-cli')).toBe(`${files.copilot}\n`);
    // The newest of all is a Claude Code session of another project: not this folder's.
    expect((await run(['locate', 'latest'])).stdout).toBe(`${files.qwen}\n`);
  });

  it('an id start several sessions share: exit 2, one line, then each candidate with its agent and time', async () => {
    const result = await run(['locate', '019a']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'transcript-doctor: 019a matches 3 sessions; give more of the id or name the agent (--agent)',
      `  ${files.codex}  codex  2026-05-05T09:04:00.000Z`,
      `  ${files.openclaw}  openclaw  2026-05-05T09:02:00.000Z`,
      `  ${files.pi}  pi  2026-05-05T09:01:00.000Z`,
      '',
    ]);
    expect((await run(['locate', '019a', '--agent', 'pi'])).stdout).toBe(`${files.pi}\n`);
  });

  it('exit 1 when no session matches, 2 for what is no id at all', async () => {
    expect(await run(['locate', 'deadbeef'])).toEqual({ code: 1, stdout: '', stderr: 'transcript-doctor: no session has an id starting with deadbeef\n' });
    expect(await run(['locate', 'latest', '--agent', 'gemini'])).toEqual({ code: 1, stdout: '', stderr: 'transcript-doctor: no session of gemini-cli for this folder\'s project\n' });
    const notId = await run(['locate', 'notes.jsonl']);
    expect(notId.code).toBe(2);
    expect(notId.stderr).toBe('transcript-doctor: notes.jsonl is not a session id, the start of one (4 or more hex digits) or latest\n');
    expect((await run(['locate', 'a1b2', '--agent', 'nobody'])).code).toBe(2);
  });

  it('-0 ends the path with NUL', async () => {
    expect((await run(['locate', 'a1b2', '-0'])).stdout).toBe(`${files.qwen}\0`);
  });

  it('a file of that name in the working folder wins over a session', async () => {
    writeFileSync(join(project, 'a1b2'), '');
    const result = await run(['scan', 'a1b2']);
    expect(result).toEqual({ code: 0, stdout: '✔ No problems in 1 file.\n', stderr: '' });
    rmSync(join(project, 'a1b2'));
  });
});

describe('a session id where a path goes', () => {
  it('repair --in-place <id start> repairs that session, with a backup, and scan finds it clean', async () => {
    const { files, run } = fakeHome();
    const before = readFileSync(files.claude);
    const repaired = await run(['repair', '--in-place', '2b7c0001']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain(files.claude);
    expect(repaired.stdout).toMatch(/repaired: dropped 1 tool call/);
    const backups = readdirSync(dirname(files.claude)).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dirname(files.claude), backups[0]!))).toEqual(before);
    expect((await run(['scan', '2b7c0001-aaaa-4bbb-8ccc-000000000003'])).code).toBe(0);
    expect((await run(['scan', files.codex])).code).toBe(1);
  });

  it('scan, repair, canonicalize and explain take ids; latest names the newest session here', async () => {
    const { files, run } = fakeHome();
    const scanned = await run(['scan', '019a0005', 'latest']);
    expect(scanned.code).toBe(1);
    expect(scanned.stdout).toContain(`${files.codex}  (codex)`);
    // latest is the Qwen Code session (the newest here): read, and clean.
    expect(scanned.stdout).not.toContain(files.qwen);
    expect(scanned.stdout).toContain('in 1 of 2 files');
    expect(await run(['canonicalize', '--check', '019a0001'])).toEqual({ code: 0, stdout: '✔ No problems in 1 file.\n', stderr: '' });
    expect((await run(['repair', '--dry-run', '019a0001'])).stdout).toContain(`${files.pi}  (pi)\n  would repair: dropped 1 tool call`);
    const explained = await run(['explain', 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Unanswered', '2b7c0001']);
    expect(explained).toMatchObject({ code: 0, stderr: '' });
    expect(explained.stdout).toContain(files.claude);
  });

  it('an ambiguous id stops the command with the list; a name that is no file and no id keeps its error', async () => {
    const { run } = fakeHome();
    const ambiguous = await run(['repair', '--in-place', '019a']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr.split('\n')[0]).toBe('transcript-doctor: 019a matches 3 sessions; give more of the id or name the agent (--agent)');
    expect(ambiguous.stderr.split('\n')).toHaveLength(5);
    expect(await run(['scan', 'missing.jsonl'])).toMatchObject({ code: 2, stderr: 'transcript-doctor: missing.jsonl: no such file or directory\n' });
    expect(await run(['scan', 'deadbeef'])).toMatchObject({ code: 2, stderr: 'transcript-doctor: deadbeef: no such file or directory, and no session id starts with it\n' });
  });
});
