import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../helpers/agent-env.js';
import { geminiSession } from '../helpers/agent-homes.js';
import { runCli, type CliResult } from './run-cli.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';

// `hooks install|uninstall` at the edges: where each agent's folder really is, files the agent
// reads its own way, a user's hooks that look like ours, links, and installs run at once.

let home: string;
let project: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'td-hooks-edges-'));
  project = join(home, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = (extra: NodeJS.ProcessEnv = {}) => agentEnv(home, { XDG_STATE_HOME: '', ...extra });
const td = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(args, { env: env(extra), cwd: project });
const hooks = (action: string, agent: string, extra: NodeJS.ProcessEnv = {}) => td(['hooks', action, agent], extra);

const SETTINGS: Record<string, string> = {
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  'gemini-cli': '.gemini/settings.json',
  'copilot-cli': '.copilot/hooks/transcript-doctor.json',
};
const settingsOf = (agent: string) => join(home, SETTINGS[agent]!);

/** Every file under the home folder with its bytes, backups aside. */
const snapshot = () => folderSnapshot(home, (name) => !name.includes('.bak-'));

/** Refused as bad input: exit 2, one line on standard error, nothing on standard output. */
function expectRefused(result: CliResult, says: RegExp): void {
  expect(result.code, result.stdout + result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^transcript-doctor: [^\n]+\n$/);
  expect(result.stderr).toMatch(says);
}

/** Installs into a file holding `before`, checks the agent sees both hooks, uninstalls, and expects the bytes back. */
async function roundTrip(agent: string, before: string | Buffer, sees: (text: string) => void): Promise<void> {
  const path = settingsOf(agent);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, before);
  const installed = await hooks('install', agent);
  expect(installed.code, installed.stderr).toBe(0);
  sees(readFileSync(path, 'utf8'));
  const removed = await hooks('uninstall', agent);
  expect(removed.code, removed.stderr).toBe(0);
  expect(readFileSync(path)).toEqual(Buffer.from(before));
}

/** The commands under each event, as JSON.parse (the agent) reads the file. */
function claudeCommands(text: string): Record<string, string[]> {
  const value = JSON.parse(text) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  return Object.fromEntries(Object.entries(value.hooks).map(([event, groups]) => [event, groups.flatMap((group) => group.hooks.map((handler) => handler.command))]));
}
const OURS = /\/bin\/transcript-doctor\.js hook session-(start|end) --agent claude-code$/;

describe('hooks install|uninstall at the edges', () => {
  it('E10 — GEMINI_CLI_HOME set: install and uninstall use $GEMINI_CLI_HOME/.gemini/settings.json, where locate finds the sessions', async () => {
    const geminiHome = join(home, 'gemini-home');
    const extra = { GEMINI_CLI_HOME: geminiHome };
    const installed = await hooks('install', 'gemini-cli', extra);
    expect(installed.code, installed.stderr).toBe(0);
    const path = join(geminiHome, '.gemini', 'settings.json');
    expect(installed.stdout).toContain(path);
    expect(readFileSync(path, 'utf8')).toContain('hook session-end --agent gemini-cli');
    expect(existsSync(join(home, '.gemini'))).toBe(false);

    const id = '3f1c2a9e-1111-4222-8333-444455556666';
    const session = geminiSession(geminiHome, 'project-x', id);
    const located = await td(['locate', id, '--agent', 'gemini-cli'], extra);
    expect(located.stdout).toBe(`${session}\n`);
    rmSync(join(geminiHome, '.gemini', 'tmp'), { recursive: true });

    const removed = await hooks('uninstall', 'gemini-cli', extra);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(Object.keys(snapshot()).filter((name) => !name.startsWith('/.local/'))).toEqual([]);
  });

  it('E11 — a literal ~ in an agent variable: pi expands it as pi does; agents that take it as a folder named ~ are refused; locate looks where each agent does', { timeout: 300_000 }, async () => {
    const piInstalled = await hooks('install', 'pi', { PI_CODING_AGENT_DIR: '~/.pi-alt' });
    expect(piInstalled.code, piInstalled.stderr).toBe(0);
    expect(readFileSync(join(home, '.pi-alt', 'extensions', 'transcript-doctor.js'), 'utf8')).toContain('extensions/pi/transcript-doctor.js');
    const piRemoved = await hooks('uninstall', 'pi', { PI_CODING_AGENT_DIR: '~/.pi-alt' });
    expect(piRemoved.code, piRemoved.stderr).toBe(0);
    expect(existsSync(join(home, '.pi-alt', 'extensions', 'transcript-doctor.js'))).toBe(false);

    const literal: [string, string, string][] = [
      ['copilot-cli', 'COPILOT_HOME', '~/.copilot-alt'],
      ['claude-code', 'CLAUDE_CONFIG_DIR', '~/.claude-alt'],
      ['codex', 'CODEX_HOME', '~/.codex-alt'],
      ['gemini-cli', 'GEMINI_CLI_HOME', '~/g'],
      ['pi', 'PI_CODING_AGENT_DIR', 'relative/pi'],
    ];
    for (const [agent, variable, value] of literal) {
      for (const action of ['install', 'uninstall']) {
        const refused = await hooks(action, agent, { [variable]: value });
        expectRefused(refused, new RegExp(`${variable}="${value.replace('.', '\\.')}" is a relative path: .* reads it from the folder it starts in; set ${variable} to an absolute path — nothing was changed`));
      }
    }
    expect(readdirSync(project)).toEqual([]);

    // locate: pi's session under the expanded folder; Copilot's where Copilot started here keeps it.
    const piId = '019a0011-aaaa-7bbb-8ccc-000000000011';
    const piFile = join(home, '.pi-alt', 'sessions', '--x--', `2026-05-05T08-00-00-000Z_${piId}.jsonl`);
    mkdirSync(dirname(piFile), { recursive: true });
    writeFileSync(piFile, `${JSON.stringify({ type: 'session', version: 3, id: piId, timestamp: '2026-05-05T08:00:00.000Z', cwd: '/x' })}\n`);
    expect((await td(['locate', piId], { PI_CODING_AGENT_DIR: '~/.pi-alt' })).stdout).toBe(`${piFile}\n`);
    const copilotId = '7d2e6f10-2222-4333-8444-555566667777';
    const copilotFile = join(project, '~', '.copilot-alt', 'session-state', copilotId, 'events.jsonl');
    mkdirSync(dirname(copilotFile), { recursive: true });
    writeFileSync(copilotFile, `${JSON.stringify({ type: 'session.start', data: { sessionId: copilotId }, id: 'e1', timestamp: '2026-05-05T08:00:00.000Z', parentId: null })}\n`);
    expect((await td(['locate', copilotId], { COPILOT_HOME: '~/.copilot-alt' })).stdout).toBe(`${copilotFile}\n`);
  });

  it("E12 — a user's own hook that runs transcript-doctor is theirs: install adds ours beside it, uninstall keeps it", async () => {
    const mine = 'transcript-doctor hook session-end --agent claude-code >> ~/td.log 2>&1';
    const before = `{\n  "hooks": {\n    "SessionEnd": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": ${JSON.stringify(mine)}\n          }\n        ]\n      }\n    ]\n  }\n}\n`;
    await roundTrip('claude-code', before, (text) => {
      const found = claudeCommands(text);
      expect(found.SessionEnd![0]).toBe(mine);
      expect(found.SessionEnd![1]).toMatch(OURS);
      expect(found.SessionStart![0]).toMatch(OURS);
    });
  });

  it('E13 — a file read as the agent reads it: a duplicated "hooks" key is edited where JSON.parse looks, and bytes come back; what the agent refuses is refused', { timeout: 300_000 }, async () => {
    // JSON.parse keeps the last "hooks": ours must land there, and both of the user's stay as they were.
    const duplicate = '{\r\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a.sh"}]}]},\r\n  "model": "opus",\r\n  "hooks": {"Stop": []}\r\n}\r\n';
    await roundTrip('claude-code', duplicate, (text) => {
      const found = claudeCommands(text);
      expect(found.SessionStart![0]).toMatch(OURS);
      expect(found.SessionEnd![0]).toMatch(OURS);
      expect(found.Stop).toEqual([]);
      expect(text.startsWith('{\r\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a.sh"}]}]},\r\n')).toBe(true);
    });
    // Gemini CLI strips comments before JSON.parse: a file with comments round-trips there.
    const commented = '{\n  // my theme\n  "ui": {"theme": "dark"}, /* keep */\n  "hooks": {}\n}\n';
    await roundTrip('gemini-cli', commented, (text) => expect(text).toContain('// my theme'));

    const refusals: [string, string | Buffer, RegExp][] = [
      ['claude-code', '{\u00a0"model": "opus"}\n', /line 1, column 2: unexpected|expected a quoted key/],
      ['gemini-cli', '{\n\u00a0 "ui": {}\n}\n', /line 2, column 1/],
      ['copilot-cli', '{"version": 1,\u00a0"hooks": {}}\n', /line 1, column 15/],
      ['codex', '{"hooks": {}}\u2028', /text after the end/],
      ['claude-code', '\ufeff{"model": "opus"}\n', /a byte order mark, which Claude Code does not read/],
      ['gemini-cli', '\ufeff{}\n', /a byte order mark, which Gemini CLI does not read/],
      ['claude-code', '{\n  // mine\n  "model": "opus"\n}\n', /line 2, column 3: a comment, which Claude Code does not read/],
      ['gemini-cli', '{\n  "ui": {},\n}\n', /line 3, column 1: a comma before \}, which Gemini CLI does not read/],
      ['codex', '{"hooks": {}, "hooks": {}}\n', /line 1, column 15: the key "hooks" a second time, which Codex refuses/],
      ['claude-code', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]), /is not UTF-8 text; nothing was changed/],
    ];
    for (const [agent, text, says] of refusals) {
      const path = settingsOf(agent);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      for (const action of ['install', 'uninstall']) {
        const before = snapshot();
        expectRefused(await hooks(action, agent), says);
        expect(snapshot()).toEqual(before);
      }
      rmSync(path);
    }
  });

  it('E14 — Copilot: install then uninstall of an existing hooks/transcript-doctor.json gives its bytes back, with no "version" left', { timeout: 120_000 }, async () => {
    for (const before of ['{}\n', '{\n  "description": "mine"\n}\n', '{"description": "mine", "hooks": {}}']) {
      await roundTrip('copilot-cli', before, (text) => {
        const value = JSON.parse(text) as { version: number; hooks: Record<string, { bash: string }[]> };
        expect(value.version).toBe(1);
        expect(value.hooks.sessionEnd![0]!.bash).toContain('hook session-end --agent copilot-cli');
      });
    }
  });

  it('E15 — four agents installed at once, and two installs of one agent at once, then uninstalled at once: the home is as it was, 6 trials of 10 processes', { timeout: 600_000 }, async () => {
    const agents = Object.keys(SETTINGS);
    for (let trial = 0; trial < 6; trial++) {
      const started = [...agents, 'claude-code'];
      const installs = await Promise.all(started.map((agent) => hooks('install', agent)));
      expect(installs.filter((result, i) => started[i] === 'claude-code' && result.code === 0).length, `trial ${trial}`).toBeGreaterThan(0);
      for (const [i, result] of installs.entries()) {
        // Of two installs into one file at once, one may find the other's file there: refused, in one line.
        if (started[i] === 'claude-code' && result.code === 2) expect(result.stderr).toMatch(/^transcript-doctor: [^\n]+(appeared|changed) while it was being edited[^\n]*\n$/);
        else expect(result.code, `trial ${trial}: ${result.stderr}`).toBe(0);
      }
      for (const agent of agents) expect(readFileSync(settingsOf(agent), 'utf8').match(/hook session-end/g), `trial ${trial}: ${agent}`).toHaveLength(1);
      const removals = await Promise.all(agents.map((agent) => hooks('uninstall', agent)));
      for (const result of removals) expect(result.code, `trial ${trial}: ${result.stderr}`).toBe(0);
      expect(snapshot(), `trial ${trial}`).toEqual({});
    }
  });

  it('E16 — a settings file that is a symlink: a dangling one is refused and kept; one to a file is edited through and stays a link', { timeout: 120_000 }, async () => {
    const path = settingsOf('claude-code');
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(join(home, 'dotfiles', 'claude.json'), path);
    for (const action of ['install', 'uninstall']) {
      const before = snapshot();
      expectRefused(await hooks(action, 'claude-code'), /settings\.json is a symlink to a file that does not exist; nothing was changed/);
      expect(snapshot()).toEqual(before);
      expect(lstatSync(path).isSymbolicLink()).toBe(true);
    }
    const target = join(home, 'dotfiles', 'claude.json');
    mkdirSync(dirname(target));
    writeFileSync(target, '{\n  "model": "opus"\n}\n');
    const installed = await hooks('install', 'claude-code');
    expect(installed.code, installed.stderr).toBe(0);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(claudeCommands(readFileSync(target, 'utf8')).SessionEnd![0]).toMatch(OURS);
    const removed = await hooks('uninstall', 'claude-code');
    expect(removed.code, removed.stderr).toBe(0);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{\n  "model": "opus"\n}\n');

    rmSync(path);
    symlinkSync(join(home, 'dotfiles'), path);
    expectRefused(await hooks('install', 'claude-code'), /settings\.json is a symlink to .*dotfiles, which is not a regular file; nothing was changed/);
  });
});
