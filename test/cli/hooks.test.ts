import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';

// `hooks install|uninstall <agent>` run as a user runs it, in a temp HOME.

let home: string;
let project: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'td-hooks-home-')));
  project = join(home, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The environment of a user whose home is the temp folder (no agent variables pointing elsewhere). */
function env(): NodeJS.ProcessEnv {
  return { HOME: home, XDG_STATE_HOME: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', COPILOT_HOME: '', PI_CODING_AGENT_DIR: '' };
}
const hooks = (...args: string[]) => runCli(['hooks', ...args], { env: env(), cwd: project });

const SETTINGS: Record<string, string> = {
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  copilot: '.copilot/hooks/transcript-doctor.json',
  pi: '.pi/agent/extensions/transcript-doctor.js',
};

/** Every file under the home folder, with its bytes: what a round trip must give back. */
const snapshot = () => folderSnapshot(home);

const withoutBackups = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => !path.includes('.bak-')));

describe('hooks install / uninstall', () => {
  for (const [agent, relative] of Object.entries(SETTINGS)) {
    it(`${agent}: install then uninstall, with no settings file before, leaves the home as it was`, async () => {
      const before = snapshot();
      const installed = await hooks('install', agent);
      expect(installed.code, installed.stderr).toBe(0);
      expect(installed.stdout).toMatch(/^installed the .* /);
      const path = join(home, relative);
      expect(readFileSync(path, 'utf8')).toContain(agent === 'pi' ? 'extensions/pi/transcript-doctor.js' : `hook session-end --agent ${agent}`);

      const again = await hooks('install', agent);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/already installed .*; nothing written\n$/);

      const removed = await hooks('uninstall', agent);
      expect(removed.code, removed.stderr).toBe(0);
      expect(existsSync(path)).toBe(false);
      // The folders install made stay; every file is as it was (the record of what install made is gone too).
      expect(snapshot()).toEqual(before);
      const none = await hooks('uninstall', agent);
      expect(none.stdout).toMatch(/nothing written\n$/);
    });
  }

  it("merges into the user's settings, keeps a backup of them, and gives them back byte for byte", async () => {
    const path = join(home, '.claude', 'settings.json');
    mkdirSync(dirname(path), { recursive: true });
    const original = '{\n  "model": "opus",\n  "hooks": {}\n}\n';
    writeFileSync(path, original);
    chmodSync(path, 0o600);

    const installed = await hooks('install', 'claude-code');
    expect(installed.code).toBe(0);
    const backup = /\(backup: (.*)\)\n$/.exec(installed.stdout)?.[1];
    expect(backup).toBeDefined();
    expect(readFileSync(backup!, 'utf8')).toBe(original);
    const value = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(value)).toEqual(['model', 'hooks']);
    expect(Object.keys(value.hooks)).toEqual(['SessionStart', 'SessionEnd']);

    expect((await hooks('uninstall', 'claude-code')).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(readdirSync(dirname(path)).filter((name) => name.includes('.bak-'))).toHaveLength(2);
  });

  it('--dry-run prints the change as a unified diff and writes nothing', async () => {
    const path = join(home, '.gemini', 'settings.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{\n  // mine\n  "theme": "dark"\n}\n');
    const before = snapshot();
    const dry = await hooks('install', 'gemini', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout.split('\n').slice(0, 3)).toEqual([`--- ${path}`, `+++ ${path}`, '@@ -1,4 +1,29 @@']);
    expect(dry.stdout).toContain('-  "theme": "dark"\n+  "theme": "dark",\n+  "hooks": {\n');
    expect(snapshot()).toEqual(before);

    const fresh = await hooks('install', 'codex', '--dry-run');
    expect(fresh.stdout.split('\n').slice(0, 2)).toEqual(['--- /dev/null', `+++ ${join(home, '.codex', 'hooks.json')}`]);
    expect(snapshot()).toEqual(before);
  });

  it('--scope project writes the settings in the current folder', async () => {
    const installed = await hooks('install', 'copilot', '--scope', 'project');
    expect(installed.code).toBe(0);
    const path = join(project, '.github', 'hooks', 'transcript-doctor.json');
    expect(JSON.parse(readFileSync(path, 'utf8')).version).toBe(1);
    expect((await hooks('uninstall', 'copilot', '--scope', 'project')).code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('says Codex asks the user to trust new hooks', async () => {
    expect((await hooks('install', 'codex')).stdout).toContain('Codex runs them once you trust them (/hooks)');
  });

  it('refuses a settings file that does not parse: exit 2, one line, nothing written', async () => {
    const path = join(home, '.claude', 'settings.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{\n  "model": "opus",\n}}\n');
    const before = snapshot();
    const refused = await hooks('install', 'claude-code');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`transcript-doctor: ${path} is not valid JSON (line 3, column 1: a comma before }, which Claude Code does not read); fix it or move it away — nothing was changed\n`);
    expect(snapshot()).toEqual(before);
  });

  it('refuses a pi extension file it did not write', async () => {
    const path = join(home, SETTINGS.pi!);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'export default () => {};\n');
    for (const action of ['install', 'uninstall']) {
      const refused = await hooks(action, 'pi');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(`transcript-doctor: ${path} exists and was not written by transcript-doctor; nothing was changed\n`);
    }
    expect(readFileSync(path, 'utf8')).toBe('export default () => {};\n');
  });

  it('refuses a settings path that is a folder, an unknown agent, and OpenClaw (its own command installs plugins)', async () => {
    mkdirSync(join(home, '.codex', 'hooks.json'), { recursive: true });
    const folder = await hooks('install', 'codex');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`transcript-doctor: ${join(home, '.codex', 'hooks.json')} is not a regular file; nothing was changed\n`);
    const unknown = await hooks('install', 'cursor');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('transcript-doctor: unknown agent "cursor" (choose from: claude-code, codex, gemini-cli, copilot-cli, pi, openclaw)\n');
    const openclaw = await hooks('install', 'openclaw');
    expect(openclaw.code).toBe(2);
    expect(openclaw.stderr).toMatch(/^transcript-doctor: OpenClaw installs plugins itself: run `openclaw plugins install --link .*extensions\/openclaw`/);
  });

  it('--help describes both commands in the style of the others', async () => {
    const install = await runCli(['hooks', 'install', '--help']);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/^Usage: transcript-doctor hooks install \[options\] <agent>/);
    for (const part of ['--dry-run', '--scope <scope>', 'Exit codes: 0 done', 'Examples:']) expect(install.stdout).toContain(part);
    const hook = await runCli(['hook', '--help']);
    expect(hook.code).toBe(0);
    for (const part of ['--agent <name>', '--mode <mode>', 'the exit code is 0', 'Examples:']) expect(hook.stdout).toContain(part);
  });

  it('the installed hook command runs this package from any folder, with no PATH', async () => {
    await hooks('install', 'claude-code');
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.SessionEnd[0].hooks[0].command;
    expect(command).toBe(`${process.execPath} ${join(ROOT, 'bin', 'transcript-doctor.js')} hook session-end --agent claude-code`);
  });
});

describe('the hook command an agent runs', () => {
  // A fixture where its agent keeps sessions in the temp home: the hook acts on no other file.
  const session = (fixture: string, name: string) => {
    const folder = join(home, fixture.startsWith('codex/') ? '.codex/sessions/2026/05/05' : '.claude/projects/-w');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, name);
    copyFileSync(join(ROOT, 'fixtures', fixture), path);
    return path;
  };
  const hook = (event: string, agent: string, input: unknown) =>
    runCli(['hook', event, '--agent', agent], { env: env(), cwd: project, input: typeof input === 'string' ? input : JSON.stringify(input) });

  // The fields each agent sends, as its code and docs name them.
  const claudeStart = (path: string) => ({ session_id: 'a1', transcript_path: path, cwd: '/w', hook_event_name: 'SessionStart', source: 'resume' });
  const codexEnd = (path: string) => ({ session_id: 'a1', transcript_path: path, cwd: '/w', hook_event_name: 'SessionEnd', reason: 'other' });

  it('session-start on resume warns in one line naming the fix, as the systemMessage Claude Code shows, and changes nothing', async () => {
    const path = session('claude-code/missing-tool-result.jsonl', 's.jsonl');
    const before = readFileSync(path, 'utf8');
    const result = await hook('session-start', 'claude-code', claudeStart(path));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const output = JSON.parse(result.stdout);
    expect(Object.keys(output)).toEqual(['systemMessage']);
    expect(output.systemMessage).toBe(
      `transcript-doctor: this session's file has 1 error (missing-tool-result) that providers may reject; it is repaired when the session ends, or now: transcript-doctor repair --in-place ${path}`,
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('session-start says nothing for a clean file, a new session, or a file that is not there', async () => {
    const clean = session('claude-code/healthy.jsonl', 'clean.jsonl');
    const damaged = session('claude-code/missing-tool-result.jsonl', 'd.jsonl');
    for (const input of [claudeStart(clean), { ...claudeStart(damaged), source: 'startup' }, claudeStart(join(home, '.claude/projects/-w/gone.jsonl')), { ...claudeStart(damaged), transcript_path: null }]) {
      const result = await hook('session-start', 'claude-code', input);
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('session-end repairs the file in place for next time, keeping a backup (Codex input)', async () => {
    const path = session('codex/missing-tool-result.jsonl', 'rollout-2026-05-05T08-00-00-4f1c0011-2b3c-4d5e-8f90-a1b2c3d4e5f6.jsonl');
    const before = readFileSync(path, 'utf8');
    const result = await hook('session-end', 'codex', codexEnd(path));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^transcript-doctor: repaired ${path} \\(backup: ${path}\\.bak-[^)]+\\)\\n$`));
    const scan = await runCli(['scan', path]);
    expect(scan.code, scan.stdout).toBe(0);
    const backups = readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(path)}.bak-`));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dirname(path), backups[0]!), 'utf8')).toBe(before);

    const again = await hook('session-end', 'codex', codexEnd(path));
    expect(again).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('session-end with --mode synthetic closes the call with an error result instead of dropping it', async () => {
    const path = session('claude-code/missing-tool-result.jsonl', 'c.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n').length;
    const result = await runCli(['hook', 'session-end', '--agent', 'claude-code', '--mode', 'synthetic'], { env: env(), input: JSON.stringify(codexEnd(path)) });
    expect(result.code).toBe(0);
    expect(readFileSync(path, 'utf8').split('\n').length).toBe(lines + 1);
    expect((await runCli(['scan', path])).code).toBe(0);
  });

  it('Copilot: finds the session from its id under COPILOT_HOME, and warns on standard error (it ignores sessionStart output)', async () => {
    const id = '4f1c0011-2b3c-4d5e-8f90-a1b2c3d4e5f6';
    const dir = join(home, '.copilot', 'session-state', id);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(ROOT, 'fixtures', 'copilot-cli', 'missing-tool-result.jsonl'), join(dir, 'events.jsonl'));
    const result = await hook('session-start', 'copilot', { sessionId: id, timestamp: 1704614400000, cwd: project, source: 'resume' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^transcript-doctor: this session's file has 1 error \(missing-tool-result\).*events\.jsonl\n$/);
    const climbing = await hook('session-end', 'copilot', { sessionId: '../../x', timestamp: 1, cwd: project, reason: 'complete' });
    expect(climbing).toEqual({ code: 0, stdout: '', stderr: 'transcript-doctor hook: session id "../../x" is not one Copilot CLI makes; nothing done\n' });
  });

  it('never stands in the way: bad input, an unknown event or agent, a locked file are one line and exit 0', async () => {
    const path = session('claude-code/missing-tool-result.jsonl', 'locked.jsonl');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid }));
    const before = readFileSync(path, 'utf8');
    const cases: [string[], string, RegExp][] = [
      [['session-end', '--agent', 'claude-code'], 'not json', /^transcript-doctor hook: the hook input on standard input is not JSON\n$/],
      [['session-end', '--agent', 'claude-code'], '', /^transcript-doctor hook: no hook input on standard input \(agents send a JSON object\)\n$/],
      [['session-end', '--agent', 'claude-code'], '[1]', /^transcript-doctor hook: the hook input on standard input is not a JSON object\n$/],
      [['session-ending', '--agent', 'claude-code'], '{}', /^transcript-doctor hook: unknown hook event "session-ending"/],
      [['session-end', '--agent', 'cursor'], '{}', /^transcript-doctor hook: --agent must be one of claude-code, codex, gemini-cli, copilot-cli\n$/],
      [['session-end', '--agent', 'claude-code'], JSON.stringify(codexEnd(path)), /^transcript-doctor: .*locked by running process/],
    ];
    for (const [args, input, stderr] of cases) {
      const result = await runCli(['hook', ...args], { env: env(), input });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(stderr);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
