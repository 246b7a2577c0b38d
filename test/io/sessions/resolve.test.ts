import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import { agentNamed } from '../../../src/io/sessions/index.js';
import { AmbiguousSessionError, looksLikeSessionRef, resolveSessionRef, sessionOfRequest } from '../../../src/io/sessions/resolve.js';
import { claudeSession, codexSession, homeMaker, copilotSession, geminiSession, openclawSession, piSession, qwenSession } from '../../helpers/agent-homes.js';

const freshHome = homeMaker('td-session-resolve-');
/** Modification times in whole minutes from a fixed moment, so "newest" is not left to the clock. */
const touch = (path: string, minute: number) => {
  const time = new Date(Date.UTC(2026, 4, 5, 9, minute));
  utimesSync(path, time, time);
  return path;
};
const paths = (found: Array<{ path: string }>) => found.map((session) => session.path);

describe('looksLikeSessionRef', () => {
  it('takes latest and hex-and-dash starts of 4 or more hex digits, nothing else', () => {
    const yes = ['latest', '4f1c', '4F1C0011', '4f1c0011-7a7e', '019a0001-aaaa-7bbb-8ccc-000000000001'];
    const no = ['4f1', 'notes', 'session.jsonl', '-4f1c', 'g4f1c', './4f1c', '4f1c/x', 'LATEST', 'a'.repeat(65)];
    expect(yes.filter(looksLikeSessionRef)).toEqual(yes);
    expect(no.filter(looksLikeSessionRef)).toEqual([]);
  });
});

describe('resolveSessionRef', () => {
  const home = freshHome();
  const env = { HOME: home };
  const cwd = '/work/shop';
  const pi = touch(piSession(home, cwd, '019a0001-aaaa-7bbb-8ccc-000000000001'), 1);
  const openclaw = touch(openclawSession(home, 'main', '019a0002-aaaa-4bbb-8ccc-000000000002'), 2);
  const topic = touch(openclawSession(home, 'main', '019a0002-aaaa-4bbb-8ccc-000000000002-topic-7'), 3);
  const claudeHere = touch(claudeSession(home, cwd, '2b7c0001-aaaa-4bbb-8ccc-000000000003'), 4);
  const claudeThere = touch(claudeSession(home, '/work/other', '2b7c0002-aaaa-4bbb-8ccc-000000000004'), 9);
  const codexHere = touch(codexSession(home, cwd, '019a0005-aaaa-7bbb-8ccc-000000000005'), 5);
  const codexThere = touch(codexSession(home, '/work/other', '019a0006-aaaa-7bbb-8ccc-000000000006'), 8);
  const codexArchived = touch(codexSession(home, cwd, '019a0007-aaaa-7bbb-8ccc-000000000007', false, 'archived_sessions'), 10);
  const gemini = touch(geminiSession(home, 'shop', 'cf27a59b-989b-4efb-922c-3d471bb9ed3a'), 6);
  const copilot = touch(copilotSession(home, '7d07bcc0-aaaa-4bbb-8ccc-000000000008'), 7);
  const qwen = touch(qwenSession(home, cwd, 'a1b2c3d4-aaaa-4bbb-8ccc-000000000009'), 0);
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'shop' } }, null, 2));
  const scope = (agent?: string) => ({ env, cwd, agent: agent === undefined ? undefined : agentNamed(agent) });

  it('finds a session by its whole id, whatever the agent', () => {
    expect(paths(resolveSessionRef('2b7c0001-aaaa-4bbb-8ccc-000000000003', scope()))).toEqual([claudeHere]);
    expect(paths(resolveSessionRef('7D07BCC0-AAAA-4BBB-8CCC-000000000008', scope()))).toEqual([copilot]);
    expect(paths(resolveSessionRef('cf27a59b-989b-4efb', scope()))).toEqual([gemini]);
  });

  it('finds a session by a start of its id that no other shares', () => {
    expect(paths(resolveSessionRef('2b7c0002', scope()))).toEqual([claudeThere]);
    expect(paths(resolveSessionRef('a1b2', scope()))).toEqual([qwen]);
  });

  it('takes the session whose id is exactly the one given over a longer id it starts', () => {
    expect(paths(resolveSessionRef('019a0002-aaaa-4bbb-8ccc-000000000002', scope()))).toEqual([openclaw]);
    expect(paths(resolveSessionRef('019a0002-aaaa-4bbb-8ccc-000000000002-topic', scope()))).toEqual([topic]);
  });

  it('refuses a start that several sessions share, listing them newest first with agent and time', () => {
    let error: unknown;
    try {
      resolveSessionRef('019a', scope());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AmbiguousSessionError);
    expect(error).toBeInstanceOf(UserError);
    const ambiguous = error as AmbiguousSessionError;
    expect(ambiguous.message).toBe('019a matches 6 sessions; give more of the id or name the agent (--agent)');
    expect(paths([...ambiguous.candidates])).toEqual([codexArchived, codexThere, codexHere, topic, openclaw, pi]);
    expect(ambiguous.details[0]).toBe(`${codexArchived}  codex  2026-05-05T09:10:00.000Z`);
    // --agent narrows it down.
    expect(paths(resolveSessionRef('019a', scope('pi')))).toEqual([pi]);
  });

  it("E4 — an empty or malformed id names no session, for every agent's command line and for the search", () => {
    for (const bad of ['', ' ', '-', '../x', 'a b', '\t2b7c']) {
      expect(paths(resolveSessionRef(bad, scope()))).toEqual([]);
      for (const agent of ['openclaw', 'pi', 'claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'qwen-code']) {
        expect(paths(resolveSessionRef(bad, scope(agent)))).toEqual([]);
        const known = agentNamed(agent)!;
        // `--resume -` is `--resume` alone to a parser (Gemini CLI: its latest session), not an id.
        if (bad === '-') continue;
        for (const args of [['--resume', bad], [`--resume=${bad}`], ['-r', bad], ['--session', bad], ['resume', bad]]) {
          const request = known.resumeFrom(args);
          expect(request === undefined ? undefined : sessionOfRequest(known, request, { env, cwd })?.path).toBeUndefined();
        }
      }
    }
  });

  it('finds nothing for an id no session has', () => {
    expect(resolveSessionRef('deadbeef', scope())).toEqual([]);
    expect(resolveSessionRef('2b7c0001', scope('codex'))).toEqual([]);
  });

  it('takes latest as the newest session of this folder\'s project for agents that file by project', () => {
    expect(paths(resolveSessionRef('latest', scope('claude-code')))).toEqual([claudeHere]);
    expect(paths(resolveSessionRef('latest', scope('pi')))).toEqual([pi]);
    expect(paths(resolveSessionRef('latest', scope('qwen-code')))).toEqual([qwen]);
    expect(paths(resolveSessionRef('latest', scope('gemini-cli')))).toEqual([gemini]);
    // Codex files by date: the project is the working folder its first line records; archived sessions are never continued.
    expect(paths(resolveSessionRef('latest', scope('codex')))).toEqual([codexHere]);
    expect(paths(resolveSessionRef('latest', { ...scope('claude-code'), cwd: '/work/other' }))).toEqual([claudeThere]);
    expect(resolveSessionRef('latest', { ...scope('claude-code'), cwd: '/work/none' })).toEqual([]);
  });

  it('takes latest as the newest session of any project for agents that do not file by project', () => {
    expect(paths(resolveSessionRef('latest', scope('openclaw')))).toEqual([topic]);
    expect(paths(resolveSessionRef('latest', scope('copilot-cli')))).toEqual([copilot]);
  });

  it('without an agent, takes latest as the newest of every agent\'s latest', () => {
    expect(paths(resolveSessionRef('latest', scope()))).toEqual([copilot]);
  });

  it('never opens a FIFO named like a session, and a link loop in a session folder ends', () => {
    const odd = freshHome();
    const cwd = '/work/shop';
    const real = codexSession(odd, cwd, '019a0001-aaaa-7bbb-8ccc-000000000001');
    execFileSync('mkfifo', [join(dirname(real), 'rollout-2026-05-05T08-00-00-019a0002-aaaa-7bbb-8ccc-000000000002.jsonl')]);
    mkdirSync(join(odd, '.claude', 'projects', '-work-shop'), { recursive: true });
    execFileSync('mkfifo', [join(odd, '.claude', 'projects', '-work-shop', '2b7c0001-aaaa-4bbb-8ccc-000000000003.jsonl')]);
    symlinkSync('..', join(odd, '.claude', 'projects', 'loop'));
    const scope = { env: { HOME: odd }, cwd };
    expect(paths(resolveSessionRef('latest', { ...scope, agent: agentNamed('codex') }))).toEqual([real]);
    expect(paths(resolveSessionRef('019a', scope))).toEqual([real]);
    expect(resolveSessionRef('2b7c', scope)).toEqual([]);
    expect(resolveSessionRef('latest', { ...scope, agent: agentNamed('claude-code') })).toEqual([]);
  });

  it('names a file reached two ways once', () => {
    const linkHome = freshHome();
    const session = openclawSession(linkHome, 'main', '5e5e0001-aaaa-4bbb-8ccc-000000000001');
    symlinkSync(join(linkHome, '.openclaw', 'agents', 'main'), join(linkHome, '.openclaw', 'agents', 'alias'));
    expect(paths(resolveSessionRef('5e5e', { env: { HOME: linkHome } }))).toEqual([session]);
  });
});

describe('sessionOfRequest', () => {
  const home = freshHome();
  const env = { HOME: home };
  const cwd = '/work/shop';
  const first = touch(geminiSession(home, 'shop', '0a000001-aaaa-4bbb-8ccc-000000000001'), 1);
  const second = touch(geminiSession(home, 'shop', '0b000002-aaaa-4bbb-8ccc-000000000002'), 0);
  writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'shop' } }));
  const codexHere = touch(codexSession(home, cwd, '019a0005-aaaa-7bbb-8ccc-000000000005'), 1);
  const codexThere = touch(codexSession(home, '/work/other', '019a0006-aaaa-7bbb-8ccc-000000000006'), 2);

  it('takes Gemini CLI\'s --resume <n> as the n-th session of the project, in the order they were started', () => {
    const gemini = agentNamed('gemini-cli')!;
    // Both files' names start with the same minute: the id's first 8 characters order them.
    expect(sessionOfRequest(gemini, { kind: 'index', index: 1 }, { env, cwd })?.path).toBe(first);
    expect(sessionOfRequest(gemini, { kind: 'index', index: 2 }, { env, cwd })?.path).toBe(second);
    expect(sessionOfRequest(gemini, { kind: 'index', index: 3 }, { env, cwd })).toBeUndefined();
  });

  it('follows codex resume --last to another folder (-C) or to every folder (--all)', () => {
    const codex = agentNamed('codex')!;
    expect(sessionOfRequest(codex, { kind: 'latest' }, { env, cwd })?.path).toBe(codexHere);
    expect(sessionOfRequest(codex, { kind: 'latest', cwd: '/work/other' }, { env, cwd })?.path).toBe(codexThere);
    expect(sessionOfRequest(codex, { kind: 'latest', allProjects: true }, { env, cwd })?.path).toBe(codexThere);
  });

  it('knows nothing before the agent starts when the user picks in a menu', () => {
    expect(sessionOfRequest(agentNamed('claude-code')!, { kind: 'picker' }, { env, cwd })).toBeUndefined();
  });
});
