import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../helpers/agent-env.js';
import { ROOT, runCli, type CliResult } from './run-cli.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';

// `hook session-start|session-end --agent …` given inputs that name files which are not the
// calling agent's sessions: whatever the input says, nothing but that agent's own session files,
// in its own folders and its own format, is read or written. A fake home, with every agent's
// folder moved by the variable the agent itself reads.

let home: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'td-hook-edges-')));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ID = '4f1c0011-2b3c-4d5e-8f90-a1b2c3d4e5f6';

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return agentEnv(home, {
    CLAUDE_CONFIG_DIR: join(home, 'claude-config'),
    CODEX_HOME: join(home, 'codex-home'),
    GEMINI_CLI_HOME: join(home, 'gemini-home'),
    COPILOT_HOME: join(home, 'copilot-home'),
    XDG_STATE_HOME: '',
    ...extra,
  });
}

type Event = 'session-start' | 'session-end';

interface Agent {
  /** Where the agent keeps a session, with the variables of env(). */
  session(): string;
  /** Where it would keep it without them: a session of its kind, but not in its folders. */
  unmoved(): string;
  /** The hook input the agent sends naming `path`. */
  input(event: Event, path: string): Record<string, unknown>;
}

/** The fields Claude Code, Codex and Gemini CLI send: the file is `transcript_path`. */
const byTranscriptPath = (event: Event, path: string) => ({
  session_id: ID,
  transcript_path: path,
  cwd: '/w/proj',
  hook_event_name: event === 'session-start' ? 'SessionStart' : 'SessionEnd',
  ...(event === 'session-start' ? { source: 'resume' } : { reason: 'other' }),
});

const AGENTS: Record<string, Agent> = {
  'claude-code': {
    session: () => join(home, 'claude-config', 'projects', '-w-proj', `${ID}.jsonl`),
    unmoved: () => join(home, '.claude', 'projects', '-w-proj', `${ID}.jsonl`),
    input: byTranscriptPath,
  },
  codex: {
    session: () => join(home, 'codex-home', 'sessions', '2026', '05', '05', `rollout-2026-05-05T08-00-00-${ID}.jsonl`),
    unmoved: () => join(home, '.codex', 'sessions', '2026', '05', '05', `rollout-2026-05-05T08-00-00-${ID}.jsonl`),
    input: byTranscriptPath,
  },
  'gemini-cli': {
    session: () => join(home, 'gemini-home', '.gemini', 'tmp', 'proj', 'chats', `session-2026-05-05T08-00-${ID.slice(0, 8)}.jsonl`),
    unmoved: () => join(home, '.gemini', 'tmp', 'proj', 'chats', `session-2026-05-05T08-00-${ID.slice(0, 8)}.jsonl`),
    input: byTranscriptPath,
  },
  // Copilot sends only its session id; a path field, were one sent, is taken too, and must pass the same gate.
  'copilot-cli': {
    session: () => join(home, 'copilot-home', 'session-state', ID, 'events.jsonl'),
    unmoved: () => join(home, '.copilot', 'session-state', ID, 'events.jsonl'),
    input: (event, path) => ({
      ...(path === AGENTS['copilot-cli']!.session() ? { sessionId: ID } : { transcriptPath: path }),
      timestamp: 1704614400000,
      cwd: '/w/proj',
      ...(event === 'session-start' ? { source: 'resume' } : { reason: 'complete' }),
    }),
  },
};

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function fixture(name: string, path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(join(ROOT, 'fixtures', name), path);
  return path;
}

const AUTHORIZED_KEYS = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb2Zkv4c2VjcmV0LWtleS1mb3ItdGVzdHM me@laptop\n';
const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n';
const CONFIG = '{"model":"sonnet","permissions":{"allow":["Bash(ls:*)"]}}\n';

const snapshot = () => folderSnapshot(home);

const hook = (agent: string, event: Event, input: unknown, extra?: NodeJS.ProcessEnv): Promise<CliResult> =>
  runCli(['hook', event, '--agent', agent], { env: env(extra), cwd: home, input: typeof input === 'string' ? input : JSON.stringify(input) });

/** Both events named `path`: each is one line on stderr and exit 0, and no entry under the home folder changed. */
async function expectLeftAlone(agent: string, path: string, line: RegExp): Promise<void> {
  const before = snapshot();
  const results = await Promise.all((['session-start', 'session-end'] as const).map((event) => hook(agent, event, AGENTS[agent]!.input(event, path))));
  expect(snapshot()).toEqual(before);
  for (const result of results) {
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^transcript-doctor[^\n]*\n$/);
    expect(result.stderr).toMatch(line);
  }
}

describe.each(Object.keys(AGENTS))('hook --agent %s', (agent) => {
  const a = AGENTS[agent]!;

  it(`E1 — ${agent}: a session-named symlink to authorized_keys in the agent's own folder is left alone`, async () => {
    const keys = write(join(home, '.ssh', 'authorized_keys'), AUTHORIZED_KEYS);
    mkdirSync(dirname(a.session()), { recursive: true });
    symlinkSync(keys, a.session());
    await expectLeftAlone(agent, a.session(), /not a .* session file \(it leads to .*\.ssh\/authorized_keys\); left alone/);
    expect(readFileSync(keys, 'utf8')).toBe(AUTHORIZED_KEYS);
  });

  it(`E1 — ${agent}: a path that climbs out of the session folder with .. to a private key is left alone`, async () => {
    const key = write(join(home, '.ssh', 'id_ed25519'), PRIVATE_KEY);
    const folder = dirname(a.session());
    mkdirSync(folder, { recursive: true });
    // `<folder>/x/y/../../<back to home>/.ssh/id_ed25519`: x and y need not exist for the kernel either.
    mkdirSync(join(folder, 'x', 'y'), { recursive: true });
    const climbing = `${folder}/x/y/../../${relative(folder, home)}/.ssh/id_ed25519`;
    await expectLeftAlone(agent, climbing, /not a .* session file \(its sessions are in .*\); left alone/);
    // And the brief's own shape, climbing inside the folder to a file no session is.
    const inside = write(join(folder, 'secret', 'id_ed25519'), PRIVATE_KEY);
    await expectLeftAlone(agent, `${folder}/x/y/../../secret/id_ed25519`, /not a .* session file/);
    expect(readFileSync(key, 'utf8')).toBe(PRIVATE_KEY);
    expect(readFileSync(inside, 'utf8')).toBe(PRIVATE_KEY);
  });

  it(`E1 — ${agent}: a plain config.json is left alone`, async () => {
    const config = write(join(home, 'w', 'proj', 'config.json'), CONFIG);
    await expectLeftAlone(agent, config, /not a .* session file \(its sessions are in .*\); left alone/);
  });

  it(`E1 — ${agent}: a damaged transcript of another format, at a session's own name in the agent's folder, is left alone`, async () => {
    fixture('pi/missing-tool-result.jsonl', a.session());
    await expectLeftAlone(agent, a.session(), /reads as pi|is a pi transcript, not .*; nothing was written/);
  });

  it(`E1 — ${agent}: a damaged session of its own kind, but outside the folders its variable moved it to, is left alone`, async () => {
    fixture(`${agent}/missing-tool-result.jsonl`, a.unmoved());
    await expectLeftAlone(agent, a.unmoved(), /not a .* session file \(its sessions are in .*\); left alone/);
  });

  it(`E1 — ${agent}: a FIFO at a session's name is refused at once, never opened`, async () => {
    mkdirSync(dirname(a.session()), { recursive: true });
    execFileSync('mkfifo', [a.session()]);
    const started = Date.now();
    await expectLeftAlone(agent, a.session(), /\(it is not a regular file\); left alone/);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it(`${agent}: a damaged session in the agent's own folder is still warned about and repaired, with its backup beside it`, async () => {
    const path = fixture(`${agent}/missing-tool-result.jsonl`, a.session());
    const before = readFileSync(path);
    const start = await hook(agent, 'session-start', a.input('session-start', path));
    expect(start.code).toBe(0);
    expect(start.stdout + start.stderr).toMatch(/this session's file has 1 error \((missing-tool-result|kept-history-pairing)\)/);
    expect(readFileSync(path)).toEqual(before);

    const end = await hook(agent, 'session-end', a.input('session-end', path));
    expect(end).toMatchObject({ code: 0, stdout: '' });
    expect(end.stderr).toMatch(new RegExp(`^transcript-doctor: repaired ${path.replaceAll('.', '\\.')} \\(backup: [^)]+\\)\\n$`));
    expect(readFileSync(path)).not.toEqual(before);
    const backups = readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(path)}.bak-`));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dirname(path), backups[0]!))).toEqual(before);
    expect((await runCli(['scan', path])).code).toBe(0);
  });
});

describe('hook: the session the input names', () => {
  it('E1 — copilot-cli: a session id with a separator, .. or a leading dot names nothing, in one line', async () => {
    const copilot = AGENTS['copilot-cli']!;
    // A real session beside: no id below may reach it or anything outside session-state.
    fixture('copilot-cli/missing-tool-result.jsonl', copilot.session());
    write(join(home, 'copilot-home', 'events.jsonl'), AUTHORIZED_KEYS);
    const before = snapshot();
    for (const id of ['..', '../..', `../session-state/${ID}`, `${ID}/..`, `a/../${ID}`, '.hidden', `${ID}\\x`, `x..y`, '']) {
      const result = await hook('copilot-cli', 'session-end', { sessionId: id, timestamp: 1, cwd: '/w/proj', reason: 'complete' });
      expect(result.code, id).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr, id).toMatch(id === '' ? /^$/ : /^transcript-doctor hook: session id ".*" is not one Copilot CLI makes; nothing done\n$/);
    }
    expect(snapshot()).toEqual(before);
  });

  it("claude-code: a config folder reached through a link (a dotfiles checkout) still counts as the agent's own", async () => {
    const real = join(home, 'dotfiles', 'claude');
    mkdirSync(real, { recursive: true });
    symlinkSync(real, join(home, 'claude-link'));
    const path = fixture('claude-code/missing-tool-result.jsonl', join(home, 'claude-link', 'projects', '-w-proj', `${ID}.jsonl`));
    const before = readFileSync(path);
    const result = await hook('claude-code', 'session-end', byTranscriptPath('session-end', path), { CLAUDE_CONFIG_DIR: join(home, 'claude-link') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^transcript-doctor: repaired .*dotfiles\/claude\/projects\/-w-proj\/.* \(backup: [^)]+\)\n$/);
    expect(readFileSync(path)).not.toEqual(before);
    expect(lstatSync(join(home, 'claude-link')).isSymbolicLink()).toBe(true);
  });
});

describe('hook: reading the input', () => {
  it('E9 — an agent that closed the pipes it reads our messages from still gets exit 0', async () => {
    // Not JSON: the one line the hook writes meets the closed pipe.
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), 'hook', 'session-end', '--agent', 'claude-code'], { env: { ...process.env, ...env() } });
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.end('not json');
      child.on('close', done);
    });
    expect(code).toBe(0);
  });

  it('E9 — a 1.1 MB hook input is read whole, and the session it names is repaired', async () => {
    const path = fixture('claude-code/missing-tool-result.jsonl', AGENTS['claude-code']!.session());
    const input = { ...byTranscriptPath('session-end', path), prompt: 'x'.repeat(1_100_000) };
    const result = await hook('claude-code', 'session-end', input);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^transcript-doctor: repaired /);
  });

  it('E9 — an input above 16 MiB is one clear line, exit 0, and nothing is done', async () => {
    const path = fixture('claude-code/missing-tool-result.jsonl', AGENTS['claude-code']!.session());
    const before = snapshot();
    const input = JSON.stringify({ ...byTranscriptPath('session-end', path), prompt: 'x'.repeat(17 * 1024 * 1024) });
    const result = await hook('claude-code', 'session-end', input);
    expect(result).toEqual({ code: 0, stdout: '', stderr: 'transcript-doctor hook: the hook input on standard input is more than 16 MiB; nothing done\n' });
    expect(snapshot()).toEqual(before);
  });
});
