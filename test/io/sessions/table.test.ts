import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { standardLocations } from '../../../src/io/inputs.js';
import { agentNamed, agentOfCommand, sessionAgents, type AgentName } from '../../../src/io/sessions/index.js';
import { claudeProjectFolder } from '../../../src/agents/claude-code.js';
import { piProjectFolder } from '../../../src/agents/pi.js';
import { claudeSession, codexSession, homeMaker, copilotSession, geminiSession, openclawSession, piSession, qwenSession } from '../../helpers/agent-homes.js';

const freshHome = homeMaker('td-session-table-');

const ids = (name: AgentName, env: NodeJS.ProcessEnv) => agentNamed(name)!.sessions(env).map((session) => [session.id, session.path]);

describe('where each agent keeps its sessions, and the id a file name gives', () => {
  const home = freshHome();
  const env = { HOME: home };
  const cwd = '/work/shop';
  const files = {
    pi: piSession(home, cwd, '019a0001-aaaa-7bbb-8ccc-000000000001'),
    openclaw: openclawSession(home, 'main', '6f0e0001-aaaa-4bbb-8ccc-000000000002'),
    claude: claudeSession(home, cwd, '2b7c0001-aaaa-4bbb-8ccc-000000000003'),
    codex: codexSession(home, cwd, '019a0002-aaaa-7bbb-8ccc-000000000004'),
    archived: codexSession(home, cwd, '019a0003-aaaa-7bbb-8ccc-000000000005', false, 'archived_sessions'),
    gemini: geminiSession(home, 'shop', 'cf27a59b-989b-4efb-922c-3d471bb9ed3a'),
    copilot: copilotSession(home, '7d07bcc0-aaaa-4bbb-8ccc-000000000006'),
    qwen: qwenSession(home, cwd, 'a1b2c3d4-aaaa-4bbb-8ccc-000000000007'),
  };
  // Files beside them that are no sessions: a backup, a lock, a Claude Code sub-agent file, Codex's index.
  writeFileSync(`${files.claude}.bak-2026-05-05T08-00-00-000Z`, '{}\n');
  writeFileSync(`${files.openclaw}.lock`, '{"pid":1}');
  mkdirSync(join(files.claude, '..', '2b7c0001-aaaa-4bbb-8ccc-000000000003', 'subagents'), { recursive: true });
  writeFileSync(join(files.claude, '..', '2b7c0001-aaaa-4bbb-8ccc-000000000003', 'subagents', 'agent-1.jsonl'), '{}\n');
  writeFileSync(join(home, '.codex', 'session_index.jsonl'), '{}\n');

  it('pi: sessions/--<cwd>--/<time>_<id>.jsonl', () => {
    expect(ids('pi', env)).toEqual([['019a0001-aaaa-7bbb-8ccc-000000000001', files.pi]]);
    expect(files.pi).toContain(`/.pi/agent/sessions/--work-shop--/`);
  });
  it('OpenClaw: agents/<agent>/sessions/<id>.jsonl', () => expect(ids('openclaw', env)).toEqual([['6f0e0001-aaaa-4bbb-8ccc-000000000002', files.openclaw]]));
  it('Claude Code: projects/<cwd, dashed>/<id>.jsonl, and not the sub-agent files below it', () => {
    expect(ids('claude-code', env)).toEqual([['2b7c0001-aaaa-4bbb-8ccc-000000000003', files.claude]]);
  });
  it('Codex: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl and archived_sessions', () => {
    expect(ids('codex', env)).toEqual([
      ['019a0002-aaaa-7bbb-8ccc-000000000004', files.codex],
      ['019a0003-aaaa-7bbb-8ccc-000000000005', files.archived],
    ]);
  });
  it('Gemini CLI: the file name holds 8 characters of the id, the first line the whole id', () => {
    expect(ids('gemini-cli', env)).toEqual([['cf27a59b-989b-4efb-922c-3d471bb9ed3a', files.gemini]]);
    // A legacy whole-file .json, pretty-printed; one whose start is not readable keeps the 8 characters of its name.
    const legacyHome = freshHome();
    const chats = join(legacyHome, '.gemini', 'tmp', '0f3a', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, 'session-2025-09-01T10-00-5e5e0001.json'), JSON.stringify({ sessionId: '5e5e0001-aaaa-4bbb-8ccc-000000000001', projectHash: '0f3a', messages: [] }, null, 2));
    writeFileSync(join(chats, 'session-2025-09-02T10-00-6f6f0002.jsonl'), 'not json\n');
    expect(ids('gemini-cli', { HOME: legacyHome }).map(([id]) => id)).toEqual(['5e5e0001-aaaa-4bbb-8ccc-000000000001', '6f6f0002']);
  });
  it('Copilot CLI: session-state/<id>/events.jsonl', () => expect(ids('copilot-cli', env)).toEqual([['7d07bcc0-aaaa-4bbb-8ccc-000000000006', files.copilot]]));
  it('Qwen Code: projects/<cwd, dashed>/chats/<id>.jsonl', () => expect(ids('qwen-code', env)).toEqual([['a1b2c3d4-aaaa-4bbb-8ccc-000000000007', files.qwen]]));

  it('finds nothing, without an error, in a home where no agent has run', () => {
    const empty = { HOME: freshHome() };
    for (const agent of sessionAgents) expect(agent.sessions(empty)).toEqual([]);
  });
});

describe('the environment variables each agent honours', () => {
  it('moves every agent\'s folder as the agent itself does', () => {
    const home = freshHome();
    const elsewhere = `${home}-elsewhere`;
    const env = {
      HOME: home,
      OPENCLAW_STATE_DIR: join(elsewhere, 'openclaw'),
      PI_CODING_AGENT_DIR: join(elsewhere, 'pi'),
      CLAUDE_CONFIG_DIR: join(elsewhere, 'claude'),
      CODEX_HOME: join(elsewhere, 'codex'),
      GEMINI_CLI_HOME: join(elsewhere, 'gemini-home'),
      COPILOT_HOME: join(elsewhere, 'copilot'),
      QWEN_HOME: join(elsewhere, 'qwen'),
    };
    const roots = Object.fromEntries(sessionAgents.map((agent) => [agent.name, agent.roots(env)]));
    expect(roots).toEqual({
      openclaw: [join(elsewhere, 'openclaw', 'agents', '*', 'sessions')],
      pi: [join(elsewhere, 'pi', 'sessions')],
      'claude-code': [join(elsewhere, 'claude', 'projects')],
      codex: [join(elsewhere, 'codex', 'sessions'), join(elsewhere, 'codex', 'archived_sessions')],
      'gemini-cli': [join(elsewhere, 'gemini-home', '.gemini', 'tmp')],
      'copilot-cli': [join(elsewhere, 'copilot', 'session-state')],
      'qwen-code': [join(elsewhere, 'qwen', 'projects')],
    });
    // QWEN_RUNTIME_DIR wins over QWEN_HOME; PI_CODING_AGENT_SESSION_DIR adds a folder of sessions with no project folders.
    expect(agentNamed('qwen-code')!.roots({ ...env, QWEN_RUNTIME_DIR: join(elsewhere, 'runtime') })).toEqual([join(elsewhere, 'runtime', 'projects')]);
    const flat = join(elsewhere, 'pi-flat');
    mkdirSync(flat, { recursive: true });
    writeFileSync(join(flat, '2026-05-05T08-00-00-000Z_019a0009-aaaa-7bbb-8ccc-000000000009.jsonl'), '{}\n');
    expect(agentNamed('pi')!.sessions({ ...env, PI_CODING_AGENT_SESSION_DIR: flat }).map((session) => session.id)).toEqual(['019a0009-aaaa-7bbb-8ccc-000000000009']);
  });

  it('E11 — a literal ~ in a folder variable is what each agent makes of it: home for pi, Qwen Code and OpenClaw, a folder named ~ where the others start', () => {
    const home = freshHome();
    const here = (...names: string[]) => resolve(process.cwd(), '~', ...names);
    const roots = (name: string, env: NodeJS.ProcessEnv) => agentNamed(name)!.roots({ HOME: home, ...env });
    // pi's config.js expandTildePath; Qwen Code's Storage.resolvePath; OpenClaw's resolveUserPath.
    expect(roots('pi', { PI_CODING_AGENT_DIR: '~/.pi-alt', PI_CODING_AGENT_SESSION_DIR: '~/flat' })).toEqual([join(home, '.pi-alt', 'sessions'), join(home, 'flat')]);
    expect(roots('pi', { PI_CODING_AGENT_DIR: '~' })).toEqual([join(home, 'sessions')]);
    expect(roots('qwen-code', { QWEN_HOME: '~/.qwen-alt' })).toEqual([join(home, '.qwen-alt', 'projects')]);
    expect(roots('qwen-code', { QWEN_RUNTIME_DIR: '~\\rt' })).toEqual([join(home, 'rt', 'projects')]);
    expect(roots('openclaw', { OPENCLAW_STATE_DIR: ' ~/.oc ' })).toEqual([join(home, '.oc', 'agents', '*', 'sessions')]);
    // Copilot's native resolveCopilotHome, Gemini CLI's paths.ts homedir, Claude Code and Codex keep the value as given.
    expect(roots('copilot-cli', { COPILOT_HOME: '~/.copilot-alt' })).toEqual([here('.copilot-alt', 'session-state')]);
    expect(roots('gemini-cli', { GEMINI_CLI_HOME: '~/g' })).toEqual([here('g', '.gemini', 'tmp')]);
    expect(roots('claude-code', { CLAUDE_CONFIG_DIR: '~/.claude-alt' })).toEqual([here('.claude-alt', 'projects')]);
    expect(roots('codex', { CODEX_HOME: '~/.codex-alt' })).toEqual([here('.codex-alt', 'sessions'), here('.codex-alt', 'archived_sessions')]);
    // An empty value is unset for all of them; `~user` is nobody's home.
    expect(roots('copilot-cli', { COPILOT_HOME: '' })).toEqual([join(home, '.copilot', 'session-state')]);
    expect(roots('pi', { PI_CODING_AGENT_DIR: '~other/x' })).toEqual([resolve(process.cwd(), '~other', 'x', 'sessions')]);
    expect(agentNamed('pi')!.home({ HOME: home, PI_CODING_AGENT_DIR: '~/.pi-alt' })).toEqual({ path: join(home, '.pi-alt'), from: { name: 'PI_CODING_AGENT_DIR', value: '~/.pi-alt', tilde: true }, relative: false });
    expect(agentNamed('copilot-cli')!.home({ HOME: home, COPILOT_HOME: '~/.copilot-alt' }).relative).toBe(true);
  });
});

describe('standardLocations', () => {
  it('lists the folders of the agents whose formats are read, in the order it always has', async () => {
    const home = freshHome();
    const readable = ['pi', 'claude-code', 'codex', 'requests'];
    expect(await standardLocations(readable, { HOME: home })).toEqual([
      join(home, '.openclaw', 'agents', '*', 'sessions'),
      join(home, '.pi', 'agent', 'sessions'),
      join(home, '.claude', 'projects'),
      join(home, '.codex', 'sessions'),
      join(home, '.codex', 'archived_sessions'),
    ]);
    // Existing OpenClaw agents are listed by name (a linked folder too); a hidden one is not.
    for (const agent of ['zed', 'main', '.trash']) mkdirSync(join(home, '.openclaw', 'agents', agent, 'sessions'), { recursive: true });
    mkdirSync(join(`${home}-linked`, 'sessions'), { recursive: true });
    symlinkSync(`${home}-linked`, join(home, '.openclaw', 'agents', 'linked'));
    expect((await standardLocations(readable, { HOME: home })).slice(0, 3)).toEqual(['linked', 'main', 'zed'].map((agent) => join(home, '.openclaw', 'agents', agent, 'sessions')));
    // A format read later brings its agent's folders in.
    expect(await standardLocations([...readable, 'gemini-cli'], { HOME: home })).toContain(join(home, '.gemini', 'tmp'));
  });
});

describe('the agent a command starts', () => {
  it('is told by the command\'s file name', () => {
    expect(['/usr/local/bin/claude', 'codex', 'C:\\bin\\codex.cmd', 'pi', 'gemini', 'copilot', 'qwen', 'openclaw'].map((command) => agentOfCommand(command)?.name)).toEqual(['claude-code', 'codex', 'codex', 'pi', 'gemini-cli', 'copilot-cli', 'qwen-code', 'openclaw']);
    expect(agentOfCommand('vim')).toBeUndefined();
  });
});

describe('project folders', () => {
  it('Claude Code cuts a long folder name at 200 characters and ends it with the path\'s hash', () => {
    expect(claudeProjectFolder('/home/me/my.proj_1')).toBe('-home-me-my-proj-1');
    const long = `/home/me/${'deep/'.repeat(50)}proj`;
    const folder = claudeProjectFolder(long);
    expect(folder.slice(0, 200)).toBe(long.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200));
    expect(folder).toMatch(/^.{200}-[0-9a-z]+$/);
    expect(folder).not.toBe(claudeProjectFolder(`${long}2`));
  });
  it('pi drops the first slash and turns slashes and colons into dashes', () => {
    expect(piProjectFolder('/home/me/proj')).toBe('--home-me-proj--');
    expect(piProjectFolder('C:\\work\\proj')).toBe('--C--work-proj--');
  });
});
