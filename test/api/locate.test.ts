import { mkdtempSync, realpathSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateSessions, scan, UserError } from '../../src/index.js';
import { agentEnv } from '../helpers/agent-env.js';
import { claudeSession, codexSession } from '../helpers/agent-homes.js';

const home = realpathSync(mkdtempSync(join(tmpdir(), 'td-api-locate-')));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('locateSessions', () => {
  const cwd = join(home, 'shop');
  const claude = claudeSession(home, cwd, '2b7c0001-aaaa-4bbb-8ccc-000000000003');
  const codex = codexSession(home, cwd, '2b7c0002-aaaa-7bbb-8ccc-000000000004');
  const minute = new Date(Date.UTC(2026, 4, 5, 9, 30));
  utimesSync(claude, minute, minute);
  const env = { HOME: home };

  it('returns the session an id start names, with its agent, id and time', () => {
    expect(locateSessions('2b7c0001', { env })).toEqual([{ path: claude, agent: 'claude-code', id: '2b7c0001-aaaa-4bbb-8ccc-000000000003', modified: minute }]);
    expect(locateSessions('latest', { env, cwd, agent: 'codex' }).map((session) => session.path)).toEqual([codex]);
    expect(locateSessions('ffff0000', { env })).toEqual([]);
  });

  it('rejects an ambiguous start with the candidates in details, and what is no id', () => {
    expect(() => locateSessions('2b7c', { env })).toThrow(expect.objectContaining({ message: '2b7c matches 2 sessions; give more of the id or name the agent (--agent)', details: [expect.stringContaining(codex), expect.stringContaining(claude)] }));
    expect(() => locateSessions('notes', { env })).toThrow(UserError);
  });

  it('is what scan takes in place of a path', async () => {
    const set = agentEnv(home);
    const previous = Object.fromEntries(Object.keys(set).map((name) => [name, process.env[name]]));
    Object.assign(process.env, set);
    try {
      const report = await scan('2b7c0002');
      expect(report.files.map((file) => file.path)).toEqual([codex]);
    } finally {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
