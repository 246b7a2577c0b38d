import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEnv } from '../helpers/agent-env.js';
import { claudeSession, claudeToolCall, codexSession, codexToolCall, copilotSession, openclawSession, piSession, piToolCall } from '../helpers/agent-homes.js';
import { ROOT, runCli, type CliResult } from './run-cli.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-guard-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A stand-in for an agent, installed under the agent's command name. It refuses to start on a
 * session that still holds the damage (exit 99: the guard did not repair it first), echoes its
 * arguments and standard input, appends a tool call with no result (it dies mid-tool), then ends
 * as told: exit 3, SIGKILL itself, or wait for a signal.
 */
const FAKE_AGENT = `#!${process.execPath}
const fs = require('node:fs');
const { FAKE_SESSION, FAKE_DAMAGE, FAKE_APPEND, FAKE_END, FAKE_READY } = process.env;
if (FAKE_DAMAGE && fs.readFileSync(FAKE_SESSION, 'utf8').includes(FAKE_DAMAGE)) { process.stderr.write('fake agent: the session is still damaged\\n'); process.exit(99); }
process.stdout.write('agent args: ' + JSON.stringify(process.argv.slice(2)) + '\\n');
process.stdout.write('agent stdin: ' + fs.readFileSync(0, 'utf8') + '\\n');
// __LAST__: the id of the last entry, which the agent's next entry hangs from.
const last = () => { const entry = JSON.parse(fs.readFileSync(FAKE_SESSION, 'utf8').trim().split('\\n').pop()); return entry.id || entry.uuid; };
if (FAKE_APPEND) fs.appendFileSync(FAKE_SESSION, FAKE_APPEND.replace('__LAST__', () => last()) + '\\n');
if (FAKE_END === 'exit') process.exit(3);
if (FAKE_END === 'kill') process.kill(process.pid, 'SIGKILL');
if (FAKE_END === 'wait') { fs.writeFileSync(FAKE_READY, String(process.pid)); setInterval(() => {}, 1000); }
`;

/** A fake home with damaged sessions of every readable agent, fake agents on PATH, and the project folder they run in. */
function setup() {
  const home = mkdtempSync(join(root, 'home-'));
  const project = join(home, 'work', 'shop');
  const bin = join(home, 'bin');
  mkdirSync(project, { recursive: true });
  mkdirSync(bin);
  for (const name of ['claude', 'codex', 'pi', 'gemini', 'copilot', 'agent-x']) {
    writeFileSync(join(bin, name), FAKE_AGENT);
    chmodSync(join(bin, name), 0o755);
  }
  const files = {
    claude: claudeSession(home, project, '2b7c0001-aaaa-4bbb-8ccc-000000000003'),
    codex: codexSession(home, project, '019a0005-aaaa-7bbb-8ccc-000000000005'),
    pi: piSession(home, project, '019a0001-aaaa-7bbb-8ccc-000000000001'),
    openclaw: openclawSession(home, 'main', '6f0e0001-aaaa-4bbb-8ccc-000000000002'),
  };
  const env = (fake: NodeJS.ProcessEnv) => agentEnv(home, { PATH: `${bin}${delimiter}${process.env.PATH}`, ...fake });
  const guard = (args: string[], fake: NodeJS.ProcessEnv, input = '') => runCli(['guard', ...args], { env: env(fake), cwd: project, input });
  const scan = (path: string) => runCli(['scan', path], { env: agentEnv(home), cwd: project });
  return { home, project, files, env, guard, scan };
}

const backups = (file: string) => readdirSync(dirname(file)).filter((name) => name.startsWith(`${file.split('/').pop()}.bak-`));
const lines = (result: CliResult) => result.stderr.split('\n').filter((line) => line !== '');

describe('transcript-doctor guard -- <agent>', () => {
  it('Claude Code --resume <id start>: repaired before it starts, gets the terminal, its exit code returned, its new damage repaired after', async () => {
    const { files, project, guard, scan } = setup();
    const result = await guard(['--', 'claude', '--resume', '2b7c0001', '-p', 'go on'], {
      FAKE_SESSION: files.claude,
      FAKE_DAMAGE: 'toolu_01Unanswered',
      FAKE_APPEND: claudeToolCall('2b7c0001-aaaa-4bbb-8ccc-000000000003', project, '__LAST__', 'toolu_01DiedMidTool'),
      FAKE_END: 'exit',
    }, 'typed by the user');
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('agent args: ["--resume","2b7c0001","-p","go on"]\nagent stdin: typed by the user\n');
    const said = lines(result);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(new RegExp(`^transcript-doctor: guard: before claude starts, ${files.claude}: repaired: dropped 1 tool call, dropped 1 assistant message, added 1 bridge message \\(backup: .*\\.bak-`));
    expect(said[1]).toMatch(new RegExp(`^transcript-doctor: guard: after claude exited, ${files.claude}: repaired: dropped 1 tool call, dropped 1 assistant message \\(backup: `));
    expect(readFileSync(files.claude, 'utf8')).not.toContain('toolu_01DiedMidTool');
    expect(backups(files.claude)).toHaveLength(2);
    expect((await scan(files.claude)).code).toBe(0);
  });

  it('Codex resume --last, killed with SIGKILL mid-tool: exit 137 and the session scans clean', async () => {
    const { files, guard, scan } = setup();
    const result = await guard(['--', 'codex', 'resume', '--last'], { FAKE_SESSION: files.codex, FAKE_DAMAGE: 'call_codex_1', FAKE_APPEND: codexToolCall('call_died'), FAKE_END: 'kill' });
    expect(result.code).toBe(137);
    expect(lines(result).map((line) => line.replace(/ \(backup: .*\)$/, ''))).toEqual([
      `transcript-doctor: guard: before codex starts, ${files.codex}: repaired: dropped 1 tool call, dropped 1 assistant message`,
      `transcript-doctor: guard: after codex exited, ${files.codex}: repaired: dropped 1 tool call, dropped 1 assistant message`,
    ]);
    expect((await scan(files.codex)).code).toBe(0);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('pi --session <id>, sent %s through the guard: the agent gets it, exit %i, the session scans clean', async (signal, code) => {
    const { files, project, env, scan } = setup();
    const ready = join(project, 'agent-ready');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'guard', '--mode', 'synthetic', '--', 'pi', '--session', '019a0001'], {
      cwd: project,
      env: { ...process.env, CI: '1', ...env({ FAKE_SESSION: files.pi, FAKE_DAMAGE: '', FAKE_APPEND: piToolCall('__LAST__', 'call_pi_died'), FAKE_END: 'wait', FAKE_READY: ready }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let closed = false;
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    void exited.then(() => (closed = true));
    while (!existsSync(ready) && !closed) await sleep(20);
    expect(closed).toBe(false);
    const agentPid = Number(readFileSync(ready, 'utf8'));
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(() => process.kill(agentPid, 0)).toThrow();
    const said = stderr.split('\n').filter((line) => line !== '');
    // synthetic: the unanswered calls get error results instead of being dropped.
    expect(said[0]).toMatch(new RegExp(`^transcript-doctor: guard: before pi starts, ${files.pi}: repaired: added 1 result`));
    expect(said[1]).toMatch(new RegExp(`^transcript-doctor: guard: after pi exited, ${files.pi}: repaired: added 1 result`));
    expect(readFileSync(files.pi, 'utf8')).toContain('call_pi_died');
    expect((await scan(files.pi)).code).toBe(0);
  });

  it('Gemini CLI --resume <id>: the session it is about to send is repaired before it starts', async () => {
    const { home, project, guard, scan } = setup();
    const id = '3f9c2a71-5b8e-4d06-9a1c-7e2b4f6d8a90';
    const folder = join(home, '.gemini', 'tmp', createHash('sha256').update(project).digest('hex'), 'chats');
    mkdirSync(folder, { recursive: true });
    const session = join(folder, 'session-2026-03-09T14-00-3f9c2a71.jsonl');
    copyFileSync(join(ROOT, 'fixtures', 'gemini-cli', 'missing-tool-result.jsonl'), session);
    expect((await scan(session)).code).toBe(1);
    const result = await guard(['--', 'gemini', '--resume', id], { FAKE_SESSION: session, FAKE_END: 'exit' });
    expect(result.code).toBe(3);
    // The answered call the session then ends on gets the closing turn the client would add itself (unanswered-final-turn).
    expect(lines(result)[0]).toBe(`transcript-doctor: guard: before gemini starts, ${session}: repaired: added 1 bridge message, rewritten 1 entry (backup: ${dirname(session)}/${backups(session)[0]})`);
    expect((await scan(session)).code).toBe(0);
    expect(backups(session)).toHaveLength(1);
  });

  it('OpenClaw (no session on its command line): the session it wrote during the run is repaired after it exits', async () => {
    const { files, guard, scan } = setup();
    const result = await guard(['--agent', 'openclaw', '--', 'agent-x'], { FAKE_SESSION: files.openclaw, FAKE_APPEND: piToolCall('__LAST__', 'call_later'), FAKE_END: 'exit' });
    expect(result.code).toBe(3);
    expect(lines(result)).toHaveLength(1);
    expect(lines(result)[0]).toMatch(new RegExp(`^transcript-doctor: guard: after agent-x exited, ${files.openclaw}: repaired: dropped 2 tool calls`));
    expect((await scan(files.openclaw)).code).toBe(0);
  });

  it('says nothing and changes nothing when every session is clean; passes exit 0 on', async () => {
    const { home, project, guard } = setup();
    const clean = claudeSession(home, project, '3c3c0001-aaaa-4bbb-8ccc-000000000001', false);
    const before = readFileSync(clean);
    const result = await guard(['--', 'claude', '-r', '3c3c0001'], { FAKE_SESSION: clean, FAKE_DAMAGE: 'never there' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(clean)).toEqual(before);
    expect(backups(clean)).toEqual([]);
  });

  it('leaves a session of another project alone, even when it changed during the run', async () => {
    const { home, guard } = setup();
    const other = claudeSession(home, '/work/other', '4d4d0001-aaaa-4bbb-8ccc-000000000001');
    const result = await guard(['--', 'claude'], { FAKE_SESSION: other, FAKE_APPEND: '{"note":"written by another copy"}', FAKE_END: 'exit' });
    expect(result).toMatchObject({ code: 3, stderr: '' });
    expect(readFileSync(other, 'utf8')).toContain('toolu_01Unanswered');
  });

  it('a session a live process holds: says it could not repair it, and still runs the agent and returns its code', async () => {
    const { files, guard } = setup();
    writeFileSync(`${files.claude}.lock`, JSON.stringify({ pid: process.pid }));
    const result = await guard(['--', 'claude', '--continue'], { FAKE_SESSION: files.claude, FAKE_END: 'exit' });
    expect(result.code).toBe(3);
    expect(lines(result)[0]).toBe(`transcript-doctor: guard: before claude starts, could not repair ${files.claude}: ${files.claude} is locked by running process ${process.pid} (${files.claude}.lock); retry when it is idle, or use --force`);
    expect(readFileSync(files.claude, 'utf8')).toContain('toolu_01Unanswered');
  });

  it('Copilot CLI --resume=<id>: the session it resumes is repaired before it starts, quietly told under --verbose when clean', async () => {
    const { home, guard, scan } = setup();
    const id = '7d07bcc0-aaaa-4bbb-8ccc-000000000006';
    const session = copilotSession(home, id);
    copyFileSync(join(ROOT, 'fixtures', 'copilot-cli', 'missing-tool-result.jsonl'), session);
    expect((await scan(session)).code).toBe(1);
    const result = await guard(['--', 'copilot', `--resume=${id}`], { FAKE_SESSION: session, FAKE_END: 'exit' });
    expect(result.code).toBe(3);
    expect(lines(result)[0]).toMatch(/^transcript-doctor: guard: before copilot starts, .*events\.jsonl: repaired: /);
    expect((await scan(session)).code).toBe(0);
    const again = await guard(['--verbose', '--', 'copilot', `--resume=${id}`], { FAKE_SESSION: session, FAKE_END: 'exit' });
    expect(again).toMatchObject({ code: 3, stderr: `transcript-doctor: guard: ${session} is clean\n` });
  });

  it('a command that is not there: 127, one line; an unknown agent runs unguarded with a note', async () => {
    const { guard, files } = setup();
    expect(await guard(['--', 'no-such-agent-here'], {})).toMatchObject({
      code: 127,
      stderr: expect.stringMatching(/guard: no-such-agent-here: command not found\n$/),
    });
    const unknown = await guard(['--', 'agent-x'], { FAKE_SESSION: files.claude, FAKE_END: 'exit' });
    expect(unknown.code).toBe(3);
    expect(lines(unknown)).toEqual([expect.stringMatching(/^transcript-doctor: guard: agent-x is none of the agents it knows \(.*claude.*\); name one with --agent\. Running it without repairs$/)]);
  });

  it('usage errors are exit 2: no -- before the command, or no command', async () => {
    const { guard } = setup();
    expect(await guard(['claude'], {})).toMatchObject({ code: 2, stderr: "transcript-doctor: put -- before the agent's command, e.g. transcript-doctor guard -- claude\n" });
    expect((await guard(['--'], {})).code).toBe(2);
    expect((await guard(['--mode', 'maybe', '--', 'claude'], {})).code).toBe(2);
  });
});
