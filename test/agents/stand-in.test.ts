import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOfCommand, registerAgent } from '../../src/agents/index.js';
import { scan } from '../../src/api/scan.js';
import { locateSessions } from '../../src/api/locate.js';
import { registerFormat } from '../../src/formats/registry.js';
import { settingsAgent } from '../../src/hooks/agents.js';
import { planHooks } from '../../src/hooks/install.js';
import { runHook } from '../../src/hooks/run-hook.js';
import { standardLocations } from '../../src/io/inputs.js';
import { ownSession } from '../../src/io/sessions/own-session.js';
import { resolveSessionRef, sessionOfRequest } from '../../src/io/sessions/resolve.js';
import { repairSession } from '../../src/run/guard-sessions.js';
import { homeMaker } from '../helpers/agent-homes.js';
import { call, Session } from '../helpers/session.js';
import { standIn } from './stand-in/agent.js';
import { standInFormat } from './stand-in/format/index.js';

/**
 * A new agent is one format folder and one agent module (test/agents/stand-in/ holds both, and
 * nothing else of the program is changed for it): once each is registered, the session search,
 * `locate`, `guard`'s session lookup and repair, the hooks and `scan` all take it, the way they
 * take the agents this package ships (whose registration is their row in src/agents/index.ts and
 * src/formats/registry.ts).
 */

const newHome = homeMaker('td-stand-in-');
const ID = '5e55a1d0-0b7e-4c1f-9d2e-6a1b2c3d4e5f';
const CWD = '/work/demo';

/** A stand-in session whose last turn calls a tool and never got its result: what repair mends. */
function standInSession(home: string, id = ID, name = '1764662400000.jsonl'): string {
  const session = new Session({ id, cwd: CWD }).user('list the notes').calls(call('call_stand_in_1'));
  const lines = session.lines.map((line, i) => (i === 0 ? line.replace('"type":"session"', '"type":"stand-in-session"') : line));
  const path = join(home, '.stand-in', 'projects', '-work-demo', name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

const removals: (() => void)[] = [];
const savedEnv = { ...process.env };
beforeAll(() => {
  removals.push(registerFormat(standInFormat), registerAgent(standIn));
});
afterAll(() => {
  removals.forEach((remove) => remove());
  process.env = savedEnv;
});

describe('a stand-in agent, registered', () => {
  it('is found by its command, and its sessions by id (read from the file by its format) and as latest', async () => {
    const home = newHome();
    const env = { HOME: home };
    const path = standInSession(home);
    expect(agentOfCommand('/usr/local/bin/stand-in')).toBe(standIn);
    expect(resolveSessionRef(ID.slice(0, 8), { env }).map((found) => [found.agent, found.path])).toEqual([['stand-in', path]]);
    expect(resolveSessionRef('latest', { agent: standIn, env, cwd: CWD }).map((found) => found.path)).toEqual([path]);
    expect(locateSessions(ID, { agent: 'stand-in', env }).map((found) => found.path)).toEqual([path]);
    await expect(standardLocations(['stand-in'], env)).resolves.toEqual([join(home, '.stand-in', 'projects')]);
  });

  it("is scanned as its own format, and guard finds and repairs the session its command line resumes", async () => {
    const home = newHome();
    const env = { HOME: home };
    const path = standInSession(home);
    const report = await scan(path, { jobs: 1 });
    expect(report.files[0]!.format).toBe('stand-in');
    expect(report.files[0]!.findings.map((finding) => finding.rule)).toContain('missing-tool-result');

    const request = standIn.resumeFrom(['--resume', ID]);
    expect(request).toEqual({ kind: 'id', id: ID });
    expect(sessionOfRequest(standIn, request!, { env, cwd: CWD })?.path).toBe(path);
    const line = await repairSession(path, standIn, 'synthetic');
    expect(line).toMatch(/^.*1764662400000\.jsonl: /);
    const after = await scan(path, { jobs: 1 });
    expect(after.files[0]!.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it("is repaired by guard after the agent exits, though guard's repair thread knows only the shipped agents", async () => {
    // The built program, whose repairs run in a worker thread (src/ has no worker file to start).
    const built = (path: string) => import(new URL(`../../dist/${path}`, import.meta.url).href);
    const [{ registerFormat: registerBuilt }, { registerAgent: registerBuiltAgent }, { stoppableRepairs }] = await Promise.all([built('formats/registry.js'), built('agents/index.js'), built('run/guard-repair.js')]);
    const taken = [registerBuilt(standInFormat), registerBuiltAgent(standIn)];
    try {
      const path = standInSession(newHome());
      const said: string[] = [];
      const repairs = stoppableRepairs(standIn, 'synthetic');
      await repairs.repair([path], (line: string) => said.push(line));
      repairs.done();
      expect(said).toHaveLength(1);
      expect(said[0]).not.toMatch(/could not repair/);
      const after = await scan(path, { jobs: 1 });
      expect(after.files[0]!.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    } finally {
      taken.forEach((remove) => remove());
    }
  });

  it('takes hooks: install writes its settings file, and its session-end hook repairs only its own sessions', async () => {
    const home = newHome();
    process.env.HOME = home;
    delete process.env.STAND_IN_HOME;
    const project = join(home, 'project');
    const change = await planHooks('install', 'stand-in', 'project', project);
    expect(change.path).toBe(join(project, '.stand-in', 'settings.json'));
    expect(JSON.parse(change.after!).hooks.SessionEnd[0].hooks[0].command).toMatch(/hook session-end --agent stand-in/);

    const path = standInSession(home);
    expect(ownSession(standIn, path, process.env)).toEqual({ kind: 'session', path });
    expect(ownSession(standIn, join(home, '.ssh', 'id_ed25519'), process.env).kind).toBe('foreign');
    const before = readFileSync(path, 'utf8');
    const output = await runHook('session-end', settingsAgent('stand-in')!, { transcript_path: path }, 'synthetic');
    expect(output.stderr).toMatch(/^transcript-doctor: repaired /);
    expect(readFileSync(path, 'utf8')).not.toBe(before);
    await expect(runHook('session-end', settingsAgent('stand-in')!, { transcript_path: join(home, 'elsewhere.jsonl') }, 'synthetic')).rejects.toThrow(/not a Stand-in session file/);
  });

  it('leaves the table as it was once taken out', () => {
    const remove = registerAgent({ ...standIn, name: 'stand-in-2', commands: ['stand-in-2'] });
    expect(agentOfCommand('stand-in-2')?.name).toBe('stand-in-2');
    remove();
    expect(agentOfCommand('stand-in-2')).toBeUndefined();
    expect(() => registerAgent(standIn)).toThrow(/already registered/);
  });
});
