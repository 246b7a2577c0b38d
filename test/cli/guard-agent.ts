import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';

/**
 * A stand-in agent for the guard's edge tests, installed under an agent's command name and told
 * what to do by its environment (all optional, in this order):
 * - FAKE_RELEASE / FAKE_RELEASED: create the first file, wait for the second (another process's turn);
 * - FAKE_ECHO=1: print its arguments, FAKE_ECHO_ENV's environment and its standard input as JSON;
 * - FAKE_STDOUT_HEX / FAKE_STDERR_HEX: those bytes to its standard output and error;
 * - FAKE_APPEND (to FAKE_SESSION; `__LAST__` is the last entry's id), FAKE_CALLS=n (one assistant
 *   turn of n unanswered calls, Claude Code lines), then FAKE_COPY gets a copy of the session;
 * - FAKE_BACKGROUND: a script started detached, outliving it, with the session as its argument;
 * - FAKE_EXITED: a file written just before it ends, then it exits FAKE_EXIT or kills itself with FAKE_SIGNAL;
 * - FAKE_WAIT=1: stays alive (another copy of the agent, mid-tool) until killed.
 */
const SCRIPT = `#!${process.execPath}
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const env = process.env;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
if (env.FAKE_RELEASE) { fs.writeFileSync(env.FAKE_RELEASE, ''); while (!fs.existsSync(env.FAKE_RELEASED)) sleep(20); }
if (env.FAKE_ECHO) {
  const input = fs.readFileSync(0);
  process.stdout.write(JSON.stringify({ args: process.argv.slice(2), env: env.FAKE_ECHO_ENV ? process.env : undefined, stdin: input.toString('hex') }) + '\\n');
}
if (env.FAKE_STDOUT_HEX) fs.writeSync(1, Buffer.from(env.FAKE_STDOUT_HEX, 'hex'));
if (env.FAKE_STDERR_HEX) fs.writeSync(2, Buffer.from(env.FAKE_STDERR_HEX, 'hex'));
const last = () => { const entry = JSON.parse(fs.readFileSync(env.FAKE_SESSION, 'utf8').trim().split('\\n').pop()); return entry.id || entry.uuid; };
if (env.FAKE_APPEND) fs.appendFileSync(env.FAKE_SESSION, env.FAKE_APPEND.replace('__LAST__', () => last()) + '\\n');
if (env.FAKE_CALLS) {
  const head = JSON.parse(fs.readFileSync(env.FAKE_SESSION, 'utf8').trim().split('\\n').pop());
  let parent = head.uuid;
  const lines = [];
  for (let i = 0; i < Number(env.FAKE_CALLS); i++) {
    const uuid = 'uuid-many-' + i;
    lines.push(JSON.stringify({ ...head, parentUuid: parent, uuid, type: 'assistant', message: { model: 'claude-sonnet-4-5', id: 'msg_many', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_many_' + i, name: 'Bash', input: { command: 'ls' } }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 5 } } }));
    parent = uuid;
  }
  fs.appendFileSync(env.FAKE_SESSION, lines.join('\\n') + '\\n');
}
if (env.FAKE_COPY) fs.copyFileSync(env.FAKE_SESSION, env.FAKE_COPY);
if (env.FAKE_BACKGROUND) spawn(process.execPath, [env.FAKE_BACKGROUND, env.FAKE_SESSION], { detached: true, stdio: 'ignore' }).unref();
if (env.FAKE_WAIT) setInterval(() => {}, 1000);
else {
  if (env.FAKE_EXITED) { fs.writeFileSync(env.FAKE_EXITED + '.part', String(process.pid)); fs.renameSync(env.FAKE_EXITED + '.part', env.FAKE_EXITED); }
  if (env.FAKE_SIGNAL) process.kill(process.pid, env.FAKE_SIGNAL);
  else process.exit(Number(env.FAKE_EXIT ?? 0));
}
`;

/** Installs the stand-in under each of `names` in `bin`. */
export function installFakeAgents(bin: string, names: readonly string[]): void {
  mkdirSync(bin, { recursive: true });
  for (const name of names) {
    writeFileSync(join(bin, name), SCRIPT);
    chmodSync(join(bin, name), 0o755);
  }
}

export interface GuardRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

/** The built CLI's guard, with exactly this environment (nothing of the test runner's added). */
export function spawnGuard(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd: string; input?: Buffer | string }) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'guard', ...args], { cwd: options.cwd, env: options.env, stdio: 'pipe' });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  const done = new Promise<GuardRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
  return { child, done };
}
