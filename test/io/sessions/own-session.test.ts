import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNamed, sessionAgents } from '../../../src/io/sessions/index.js';
import { ownSession } from '../../../src/io/sessions/own-session.js';
import { claudeSession, codexSession, copilotSession, geminiSession, homeMaker, openclawSession, piSession, qwenSession } from '../../helpers/agent-homes.js';

const freshHome = homeMaker('td-own-session-');
const claude = agentNamed('claude-code')!;

describe('ownSession: whether a path handed to us is one of an agent session files', () => {
  const home = freshHome();
  const env = { HOME: home, PI_CODING_AGENT_SESSION_DIR: join(home, 'flat') };
  const cwd = '/work/shop';
  const claudeFile = claudeSession(home, cwd, '2b7c0001-aaaa-4bbb-8ccc-000000000003');
  codexSession(home, cwd, '019a0002-aaaa-7bbb-8ccc-000000000004');
  codexSession(home, cwd, '019a0003-aaaa-7bbb-8ccc-000000000005', false, 'archived_sessions');
  codexSession(home, cwd, '019a0004-aaaa-7bbb-8ccc-000000000006', false, 'archived_sessions/2026/05/05');
  geminiSession(home, 'shop', 'cf27a59b-989b-4efb-922c-3d471bb9ed3a');
  copilotSession(home, '7d07bcc0-aaaa-4bbb-8ccc-000000000006');
  qwenSession(home, cwd, 'a1b2c3d4-aaaa-4bbb-8ccc-000000000007');
  piSession(home, cwd, '019a0001-aaaa-7bbb-8ccc-000000000001');
  openclawSession(home, 'main', '6f0e0001-aaaa-4bbb-8ccc-000000000002');
  mkdirSync(join(home, 'flat'));
  writeFileSync(join(home, 'flat', '2026-05-05T08-00-00-000Z_019a0009-aaaa-7bbb-8ccc-000000000009.jsonl'), '{}\n');

  it('every session an agent lists is its own, by the same path, and no other agent’s', () => {
    for (const agent of sessionAgents) {
      const sessions = agent.sessions(env);
      expect(sessions.length, agent.name).toBeGreaterThan(0);
      for (const session of sessions) {
        expect(ownSession(agent, session.path, env), session.path).toEqual({ kind: 'session', path: session.path });
        for (const other of sessionAgents.filter((candidate) => candidate.format !== agent.format && candidate.name !== agent.name)) {
          expect(ownSession(other, session.path, env).kind, `${other.name}: ${session.path}`).toBe('foreign');
        }
      }
    }
  });

  it('files beside a session, or a level off, are not sessions; a session not written yet is missing', () => {
    const session = claudeFile;
    const folder = dirname(session);
    writeFileSync(`${session}.bak-2026-05-05T08-00-00-000Z`, '{}\n');
    mkdirSync(join(folder, 'sub', 'subagents'), { recursive: true });
    writeFileSync(join(folder, 'sub', 'subagents', 'agent-1.jsonl'), '{}\n');
    for (const path of [`${session}.bak-2026-05-05T08-00-00-000Z`, join(folder, 'sub', 'subagents', 'agent-1.jsonl'), join(home, '.claude', 'settings.json'), join(home, '.claude', 'projects', 'x.jsonl'), join(folder, '.hidden.jsonl')]) {
      expect(ownSession(claude, path, env).kind, path).toBe('foreign');
    }
    expect(ownSession(claude, join(folder, 'not-yet.jsonl'), env)).toEqual({ kind: 'missing' });
    expect(ownSession(claude, `${session}\0`, env)).toEqual({ kind: 'foreign', reason: 'it is not a path' });
  });

  it('a link is followed once and its real path judged again: inside the folders it counts (by its real path), outside it does not', () => {
    const session = claudeFile;
    const folder = dirname(session);
    symlinkSync(session, join(folder, 'alias.jsonl'));
    expect(ownSession(claude, join(folder, 'alias.jsonl'), env)).toEqual({ kind: 'session', path: session });
    writeFileSync(join(home, 'outside.jsonl'), '{}\n');
    symlinkSync(join(home, 'outside.jsonl'), join(folder, 'out.jsonl'));
    expect(ownSession(claude, join(folder, 'out.jsonl'), env)).toEqual({ kind: 'foreign', reason: `it leads to ${join(home, 'outside.jsonl')}` });
    // A linked project folder leading out of the folders: its files are not the agent's either.
    mkdirSync(join(home, 'elsewhere'));
    writeFileSync(join(home, 'elsewhere', 's.jsonl'), '{}\n');
    symlinkSync(join(home, 'elsewhere'), join(home, '.claude', 'projects', '-linked'));
    expect(ownSession(claude, join(home, '.claude', 'projects', '-linked', 's.jsonl'), env).kind).toBe('foreign');
    // A dangling link writes nothing anywhere: it is a session not there yet.
    symlinkSync(join(home, 'nowhere.jsonl'), join(folder, 'dangling.jsonl'));
    expect(ownSession(claude, join(folder, 'dangling.jsonl'), env)).toEqual({ kind: 'missing' });
  });

  it('a folder at a session name is no regular file', () => {
    const folder = dirname(claudeFile);
    mkdirSync(join(folder, 'dir.jsonl'));
    expect(ownSession(claude, join(folder, 'dir.jsonl'), env)).toEqual({ kind: 'foreign', reason: 'it is not a regular file' });
  });

  it('the folders move with the variables the agent reads', () => {
    const moved = { ...env, CLAUDE_CONFIG_DIR: join(home, 'moved') };
    const session = claudeFile;
    expect(ownSession(claude, session, moved)).toEqual({ kind: 'foreign', reason: `its sessions are in ${join(home, 'moved', 'projects')}` });
  });
});
