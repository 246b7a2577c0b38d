import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/io/process-alive.js';
import { agentEnv } from '../helpers/agent-env.js';
import { claudeSession, claudeToolCall, dashed } from '../helpers/agent-homes.js';
import { installFakeAgents, spawnGuard } from './guard-agent.js';
import { ROOT, runCli } from './run-cli.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-guard-edges-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Processes a test leaves running (another copy of an agent); killed after each test. */
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

const A = '2b7c0001-aaaa-4bbb-8ccc-00000000000a';
const B = '2b7c0001-bbbb-4bbb-8ccc-00000000000b';

/** A fake home and project, fake agents on PATH, and the environment the guard gets (exactly). */
function setup() {
  const home = mkdtempSync(join(root, 'home-'));
  const project = join(home, 'work', 'shop');
  const bin = join(home, 'bin');
  mkdirSync(project, { recursive: true });
  installFakeAgents(bin, ['claude', 'pi', 'qwen']);
  const env = (fake: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...agentEnv(home), PATH: `${bin}${delimiter}${dirname(process.execPath)}${delimiter}/usr/bin:/bin`, CI: '1', ...fake });
  const guard = (args: string[], fake: NodeJS.ProcessEnv = {}, input?: Buffer | string) => spawnGuard(args, { env: env(fake), cwd: project, input }).done;
  const scan = (path: string) => runCli(['scan', path], { env: agentEnv(home), cwd: project });
  return { home, project, bin, env, guard, scan };
}

const backups = (file: string) => readdirSync(dirname(file)).filter((name) => name.startsWith(`${file.split('/').pop()}.bak-`));
const temps = (file: string) => readdirSync(dirname(file)).filter((name) => name.includes('.transcript-doctor-'));
const said = (stderr: Buffer) => stderr.toString('utf8').split('\n').filter((line) => line !== '');

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('guard at the edges', () => {
  it('E2 — guard -- claude --resume A leaves alone session B that a second live claude in the project is writing (its call written, its result not yet)', async () => {
    const { home, project, bin, env, guard } = setup();
    const sessionA = claudeSession(home, project, A, false);
    const sessionB = claudeSession(home, project, B, false);
    const mark = (name: string) => join(project, name);
    // The second copy: started from the project as a user would, it writes its call to B while the guarded one runs, and stays mid-tool.
    const second = spawn(process.execPath, [join(bin, 'claude'), '--model', 'opus'], {
      cwd: project,
      env: env({ FAKE_RELEASE: mark('second-up'), FAKE_RELEASED: mark('go-second'), FAKE_SESSION: sessionB, FAKE_APPEND: claudeToolCall(B, project, '__LAST__', 'toolu_01InFlight'), FAKE_WAIT: '1' }),
      stdio: 'ignore',
    });
    running.push(second);
    await until(() => existsSync(mark('second-up')), 'the second claude');
    // Once the guarded claude runs, the second writes its call; only then does the guarded one go on and exit.
    const turns = setInterval(() => {
      if (existsSync(mark('first-up'))) writeFileSync(mark('go-second'), '');
      if (readFileSync(sessionB, 'utf8').includes('toolu_01InFlight')) writeFileSync(mark('go-first'), '');
    }, 10);
    const result = await guard(['--', 'claude', '--resume', A], {
      FAKE_RELEASE: mark('first-up'),
      FAKE_RELEASED: mark('go-first'),
      FAKE_SESSION: sessionA,
      FAKE_APPEND: claudeToolCall(A, project, '__LAST__', 'toolu_01Ours'),
      FAKE_EXIT: '3',
    }).finally(() => clearInterval(turns));
    await until(() => readFileSync(sessionB, 'utf8').includes('toolu_01InFlight'), 'B to hold its call');
    expect(result.code).toBe(3);
    // B keeps its in-flight call, untouched; A, the session this claude resumed, is repaired.
    expect(readFileSync(sessionB, 'utf8')).toContain('toolu_01InFlight');
    expect(backups(sessionB)).toEqual([]);
    expect(readFileSync(sessionA, 'utf8')).not.toContain('toolu_01Ours');
    const lines = said(result.stderr);
    expect(lines).toHaveLength(2);
    expect(lines).toContainEqual(`transcript-doctor: guard: after claude exited, left ${sessionB} as it is: claude process ${second.pid} works in ${project} and may be writing it`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^transcript-doctor: guard: after claude exited, ${sessionA}: repaired: dropped 1 tool call`)));
  }, 60_000);

  it('E2 — a session another process holds open for writing is left alone after the agent exits', async () => {
    const { home, project, guard } = setup();
    const session = claudeSession(home, project, A, false);
    // Not an agent: any process with the file open to write (Codex keeps its rollout open so).
    const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(session)}, 'a'); setInterval(() => {}, 1000)`], { stdio: 'ignore' });
    running.push(holder);
    await sleep(300);
    const result = await guard(['--', 'claude', '--continue'], { FAKE_SESSION: session, FAKE_APPEND: claudeToolCall(A, project, '__LAST__', 'toolu_01Held'), FAKE_EXIT: '0' });
    expect(result.code).toBe(0);
    expect(said(result.stderr)).toEqual([`transcript-doctor: guard: after claude exited, left ${session} as it is: process ${holder.pid} (${process.execPath.split('/').pop()}) holds it open for writing`]);
    expect(readFileSync(session, 'utf8')).toContain('toolu_01Held');
  }, 60_000);

  it('E3 — guard -- pi --session ./train.jsonl leaves an OpenAI-chat dataset as it is, with one line', async () => {
    const { project, guard } = setup();
    const dataset = join(project, 'train.jsonl');
    copyFileSync(join(ROOT, 'fixtures', 'requests', 'openai-chat-broken.jsonl'), dataset);
    const before = readFileSync(dataset);
    const result = await guard(['--', 'pi', '--session', './train.jsonl'], { FAKE_EXIT: '0' });
    expect(result.code).toBe(0);
    expect(said(result.stderr)).toEqual([`transcript-doctor: guard: left ./train.jsonl as it is: it is not a pi session (it reads as requests)`]);
    expect(readFileSync(dataset)).toEqual(before);
    expect(backups(dataset)).toEqual([]);
  }, 60_000);

  it("E4 — guard -- qwen --resume '' names no session: the project's only (damaged) session is left as it is", async () => {
    const { home, project, guard } = setup();
    const folder = join(home, '.qwen', 'projects', dashed(project), 'chats');
    mkdirSync(folder, { recursive: true });
    const session = join(folder, '7c3e9a52-4b1d-4f6a-9e08-2d5b71c4a9e3.jsonl');
    copyFileSync(join(ROOT, 'fixtures', 'qwen-code', 'missing-tool-result.jsonl'), session);
    const before = readFileSync(session);
    for (const args of [['--resume', ''], ['-r', ' '], ['--resume=']]) {
      const result = await guard(['--', 'qwen', ...args], { FAKE_EXIT: '0' });
      expect(result).toMatchObject({ code: 0 });
      expect(result.stderr.toString()).toBe('');
      expect(readFileSync(session)).toEqual(before);
    }
    expect(backups(session)).toEqual([]);
  }, 60_000);

  it('E7 — guard with a closed standard error: no crash, the agent’s exit code 7, the session still repaired after it exits', async () => {
    const { home, project, env, scan } = setup();
    const session = claudeSession(home, project, A);
    const { child, done } = spawnGuard(['--', 'claude', '--resume', A], {
      env: env({ FAKE_SESSION: session, FAKE_APPEND: claudeToolCall(A, project, '__LAST__', 'toolu_01Late'), FAKE_STDOUT_HEX: Buffer.from('agent ran\n').toString('hex'), FAKE_EXIT: '7' }),
      cwd: project,
    });
    child.stderr!.destroy();
    const result = await done;
    expect(result.code).toBe(7);
    expect(result.stdout.toString()).toBe('agent ran\n');
    expect(readFileSync(session, 'utf8')).not.toContain('toolu_01Late');
    expect(backups(session)).toHaveLength(2);
    expect((await scan(session)).code).toBe(0);
  }, 60_000);

  it('E8 — SIGTERM to guard during a slow post-exit repair: it stops within a second, exit 143, the session as the agent left it, no temp file', async () => {
    const { home, project, env } = setup();
    const session = claudeSession(home, project, A, false);
    const left = join(project, 'as-left.jsonl');
    const exited = join(project, 'exited');
    const { child, done } = spawnGuard(['--', 'claude', '--resume', A], { env: env({ FAKE_SESSION: session, FAKE_CALLS: '14000', FAKE_COPY: left, FAKE_EXITED: exited, FAKE_EXIT: '0' }), cwd: project });
    await until(() => existsSync(exited), 'the agent to exit');
    // Gone from /proc once the guard has reaped it, which is when the guard learns it ended; then into the repair.
    const agentPid = Number(readFileSync(exited, 'utf8'));
    await until(() => !existsSync(`/proc/${agentPid}`) && !isAlive(agentPid), 'the guard to reap the agent');
    await sleep(500);
    const sent = Date.now();
    child.kill('SIGTERM');
    const result = await done;
    const took = Date.now() - sent;
    expect(result.code).toBe(143);
    expect(took).toBeLessThan(1000);
    // Compared as bytes: a deep comparison of 7 MB takes minutes.
    expect(readFileSync(session).equals(readFileSync(left))).toBe(true);
    expect(backups(session)).toEqual([]);
    expect(temps(session)).toEqual([]);
  }, 60_000);
});

describe('guard passes the agent through unchanged', () => {
  it('arguments with spaces, quotes and empty strings, the environment, standard input bytes', async () => {
    const { env, project } = setup();
    const args = ['-p', 'two words', '', "it's \"quoted\"", '--flag=a b', '$HOME', '*', '\\n', 'ünï', ' '];
    const input = Buffer.from([0x00, 0xff, 0x0a, 0x41, 0xc3, 0x28, 0x0d, 0x0a]);
    const given = env({ FAKE_ECHO: '1', FAKE_ECHO_ENV: '1', ODD_VALUE: 'a=b; c\td "e"', EMPTY_VALUE: '' });
    const result = await spawnGuard(['--', 'claude', ...args], { env: given, cwd: project, input }).done;
    expect(result.code).toBe(0);
    const echoed = JSON.parse(result.stdout.toString());
    expect(echoed.args).toEqual(args);
    expect(echoed.stdin).toBe(input.toString('hex'));
    expect(echoed.env).toEqual(given);
  }, 60_000);

  it('standard output and error bytes as the agent wrote them', async () => {
    const { guard } = setup();
    const out = Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0d]);
    const err = Buffer.from([0xc3, 0x28, 0x00, 0x0a, 0x7f]);
    const result = await guard(['--', 'pi'], { FAKE_STDOUT_HEX: out.toString('hex'), FAKE_STDERR_HEX: err.toString('hex'), FAKE_EXIT: '0' });
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(out);
    expect(result.stderr).toEqual(err);
  }, 60_000);

  it.each([
    [{ FAKE_EXIT: '0' }, 0],
    [{ FAKE_EXIT: '1' }, 1],
    [{ FAKE_EXIT: '255' }, 255],
    [{ FAKE_SIGNAL: 'SIGKILL' }, 137],
    [{ FAKE_SIGNAL: 'SIGTERM' }, 143],
    [{ FAKE_SIGNAL: 'SIGSEGV' }, 139],
  ])('exit status %j → %i', async (end, code) => {
    const { guard } = setup();
    expect((await guard(['--', 'claude'], end)).code).toBe(code);
  }, 60_000);

  it('loses no line the agent appends while guard repairs after it exits (a background writer it left behind)', async () => {
    const { home, project, guard } = setup();
    const session = claudeSession(home, project, A);
    const writer = join(project, 'writer.cjs');
    const done = join(project, 'writer-done');
    // Appends a line every 10 ms for a second, as an agent's leftover process would, then says so.
    writeFileSync(writer, `const fs = require('fs'); let n = 0; const t = setInterval(() => { fs.appendFileSync(process.argv[2], JSON.stringify({ type: 'system', uuid: 'late-' + n, parentUuid: null, sessionId: ${JSON.stringify(A)}, content: 'late ' + n, timestamp: new Date().toISOString() }) + '\\n'); if (++n === 100) { clearInterval(t); fs.writeFileSync(${JSON.stringify(done)}, ''); } }, 10);`);
    const result = await guard(['--', 'claude', '--resume', A], { FAKE_SESSION: session, FAKE_CALLS: '3000', FAKE_BACKGROUND: writer, FAKE_EXIT: '5' });
    expect(result.code).toBe(5);
    await until(() => existsSync(done), 'the background writer');
    const text = readFileSync(session, 'utf8');
    for (let n = 0; n < 100; n++) expect(text).toContain(`"uuid":"late-${n}"`);
    expect(temps(session)).toEqual([]);
  }, 60_000);
});
