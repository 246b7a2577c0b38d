import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAndLoadExtensions, ExtensionRunner, SessionManager, type ExtensionUIContext, type ModelRegistry } from '@mariozechner/pi-coding-agent';
import { call, Session } from '../helpers/session.js';
import { runCli } from '../cli/run-cli.js';
import { piContextCheck } from './pi-context.js';

// The extension `hooks install pi` ships, loaded by pi's own extension loader from the folder
// pi discovers extensions in, and driven through pi's own ExtensionRunner, as pi fires
// session_before_switch on /resume and session_shutdown on exit.

let root: string;
let agentDir: string;
let sessions: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'td-pi-ext-'));
  agentDir = join(root, 'agent');
  sessions = join(root, 'sessions');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A session whose last assistant turn called a tool that never answered (pi killed mid-tool). */
function damagedSession(name: string): string {
  const file = join(root, name);
  writeFileSync(file, new Session().user('read my notes').calls(call('toolu_01A')).jsonl());
  return file;
}

async function installedExtension(): Promise<Awaited<ReturnType<typeof discoverAndLoadExtensions>>> {
  const installed = await runCli(['hooks', 'install', 'pi'], { env: { PI_CODING_AGENT_DIR: agentDir } });
  expect(installed.code).toBe(0);
  expect(existsSync(join(agentDir, 'extensions', 'transcript-doctor.js'))).toBe(true);
  return discoverAndLoadExtensions([], root, agentDir);
}

function runnerFor(loaded: Awaited<ReturnType<typeof discoverAndLoadExtensions>>, sessionManager: SessionManager) {
  const runner = new ExtensionRunner(loaded.extensions, loaded.runtime, root, sessionManager, {} as ModelRegistry);
  const errors: string[] = [];
  const notes: string[] = [];
  runner.onError((error) => errors.push(error.error));
  runner.setUIContext({ notify: (message: string) => notes.push(message) } as unknown as ExtensionUIContext);
  return { runner, errors, notes };
}

describe('the pi extension, loaded by pi', () => {
  it('is found in the agent folder and loads without errors', async () => {
    const loaded = await installedExtension();
    expect(loaded.errors).toEqual([]);
    expect(loaded.extensions.map((extension) => extension.path)).toEqual([join(agentDir, 'extensions', 'transcript-doctor.js')]);
    expect([...loaded.extensions[0]!.handlers.keys()].sort()).toEqual(['session_before_switch', 'session_shutdown']);
  });

  it('repairs the session /resume is about to load, before pi reads it, keeping a backup', async () => {
    const target = damagedSession('target.jsonl');
    const before = readFileSync(target, 'utf8');
    expect((await piContextCheck(before)).unansweredCalls).toEqual(['toolu_01A']);
    const current = SessionManager.create(root, sessions);
    const { runner, errors, notes } = runnerFor(await installedExtension(), current);

    const result = await runner.emit({ type: 'session_before_switch', reason: 'resume', targetSessionFile: target });

    expect(result).toBeUndefined(); // never cancels the switch
    expect(errors).toEqual([]);
    expect(notes).toEqual([`transcript-doctor: repaired ${target}`]);
    expect((await piContextCheck(readFileSync(target, 'utf8'))).unansweredCalls).toEqual([]);
    const backups = readdirSync(root).filter((name) => name.startsWith('target.jsonl.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(root, backups[0]!), 'utf8')).toBe(before);
  });

  it('leaves a /new switch alone', async () => {
    const target = damagedSession('other.jsonl');
    const before = readFileSync(target, 'utf8');
    const { runner } = runnerFor(await installedExtension(), SessionManager.create(root, sessions));
    await runner.emit({ type: 'session_before_switch', reason: 'new', targetSessionFile: target });
    expect(readFileSync(target, 'utf8')).toBe(before);
  });

  it('closes the open tool call of the session pi quits, with an error result', async () => {
    const file = damagedSession('live.jsonl');
    const { runner, errors } = runnerFor(await installedExtension(), SessionManager.open(file, sessions));

    await runner.emit({ type: 'session_shutdown', reason: 'quit' });

    expect(errors).toEqual([]);
    const after = await piContextCheck(readFileSync(file, 'utf8'));
    expect(after.unansweredCalls).toEqual([]);
    // Closed, not dropped: the call is still there, answered by an error result.
    expect(after.roles).toEqual(['user', 'assistant', 'toolResult']);
  });

  it('does not rewrite the session under a reload, which goes on in memory', async () => {
    const file = damagedSession('reloading.jsonl');
    const before = readFileSync(file, 'utf8');
    const { runner } = runnerFor(await installedExtension(), SessionManager.open(file, sessions));
    await runner.emit({ type: 'session_shutdown', reason: 'reload' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('warns instead of failing when the repair is refused (a live agent holds the lock)', async () => {
    const target = damagedSession('locked.jsonl');
    writeFileSync(`${target}.lock`, JSON.stringify({ pid: process.pid }));
    const before = readFileSync(target, 'utf8');
    const { runner, errors, notes } = runnerFor(await installedExtension(), SessionManager.create(root, sessions));
    await runner.emit({ type: 'session_before_switch', reason: 'resume', targetSessionFile: target });
    expect(errors).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^transcript-doctor: .*locked by running process/);
    expect(readFileSync(target, 'utf8')).toBe(before);
  });
});
