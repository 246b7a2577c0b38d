import { basename, resolve } from 'node:path';
import { reason } from '../errors.js';
import { statSync } from '../io/named-fs.js';
import { agentOfCommand, sessionAgents, type SessionAgent } from '../io/sessions/index.js';
import { sessionOfRequest } from '../io/sessions/resolve.js';
import type { RepairMode } from '../repair/plan.js';
import { runAgent } from './guard-child.js';
import { notASessionOf, repairSession, snapshot, stampOf, writtenBetween, type Snapshot } from './guard-sessions.js';
import { sessionsInOtherHands } from './guard-writers.js';
import { stoppableRepairs } from './guard-repair.js';
import type { CacheInput } from '../cache/open-cache.js';

export interface GuardSettings {
  mode: RepairMode;
  /** Also slim each session whose request does not fit (`--slim`). */
  slim?: boolean;
  /** The agent, when the command's name does not say it. */
  agent?: SessionAgent;
  verbose: boolean;
  /** The scan cache's options: a session found clean before and unchanged since is not read again. */
  cache?: CacheInput;
  /** Where the guard's own lines go (one each, already prefixed by the caller). */
  say: (line: string) => void;
}

/**
 * `guard -- <agent command…>`: repairs the session the agent is about to read, runs the agent with
 * the terminal and signals passed through, then repairs the sessions it wrote, whatever way it
 * ended, but none another live process is writing (see docs/guard.md). Resolves to the agent's
 * exit code; nothing the guard fails at changes it. A signal after the agent has ended stops the
 * guard (stoppableRepairs).
 */
export async function runGuard(command: readonly string[], settings: GuardSettings): Promise<number> {
  const [program, ...args] = command;
  const env = process.env;
  const agent = settings.agent ?? agentOfCommand(program!);
  if (agent === undefined) {
    settings.say(`guard: ${basename(program!)} is none of the agents it knows (${sessionAgents.flatMap((known) => known.commands).join(', ')}); name one with --agent. Running it without repairs`);
  }

  let before: Snapshot | undefined;
  let resumed: string | undefined;
  let cwd = process.cwd();
  if (agent !== undefined) {
    try {
      before = snapshot(agent, env);
      const request = agent.resumeFrom(args);
      if (request?.kind === 'latest' && request.cwd !== undefined) cwd = request.cwd;
      if (request?.kind === 'picker' && settings.verbose) settings.say(`guard: ${agent.name} lets you pick the session; it is checked when ${basename(program!)} exits`);
      resumed = request === undefined ? undefined : sessionOfRequest(agent, request, { env, cwd })?.path;
      const foreign = resumed === undefined || statSync(resumed, { throwIfNoEntry: false })?.size === 0 ? undefined : notASessionOf(resumed, agent);
      if (foreign !== undefined) {
        // Not the guard's to touch, before or after: one line says so.
        settings.say(`guard: left ${resumed} as it is: ${foreign}`);
        resumed = undefined;
      }
      if (resumed !== undefined) {
        const line = await repairSession(resumed, agent, settings.mode, settings.slim, settings.cache);
        if (line !== undefined) settings.say(`guard: before ${basename(program!)} starts, ${line}`);
        else if (settings.verbose) settings.say(`guard: ${resumed} is clean`);
      }
    } catch (error) {
      settings.say(`guard: cannot check the session ${basename(program!)} resumes: ${reason(error)}`);
    }
  }

  const run = runAgent(program!, args, !process.stdin.isTTY);
  const end = await run.ended;
  try {
    if (end.notStarted !== undefined) settings.say(`guard: ${program}: ${end.notStarted}`);
    else if (agent !== undefined && before !== undefined) await repairAfter(agent, before, resumed, cwd, program!, settings);
  } catch (error) {
    settings.say(`guard: cannot check the sessions ${basename(program!)} wrote: ${reason(error)}`);
  } finally {
    run.release();
  }
  return end.code;
}

/**
 * The sessions the agent wrote (and the one it resumed), each repaired unless another live
 * process is writing it: one that holds it open, a copy of the agent at work in its project, or
 * any writer that changed it after the agent exited.
 */
async function repairAfter(agent: SessionAgent, before: Snapshot, resumed: string | undefined, cwd: string, program: string, settings: GuardSettings): Promise<void> {
  const repairs = stoppableRepairs(agent, settings.mode, settings.slim, settings.cache);
  try {
    await repairFree(repairs.repair, agent, before, resumed, cwd, program, settings);
  } finally {
    repairs.done();
  }
}

async function repairFree(repair: ReturnType<typeof stoppableRepairs>['repair'], agent: SessionAgent, before: Snapshot, resumed: string | undefined, cwd: string, program: string, settings: GuardSettings): Promise<void> {
  const env = process.env;
  const atExit = snapshot(agent, env);
  const ours = resumed === undefined ? undefined : resolve(resumed);
  const oursAtExit = ours === undefined ? undefined : stampOf(ours);
  const written = writtenBetween(before, atExit, agent, env, cwd).map((path) => resolve(path));
  const paths = [...new Set([...(ours === undefined ? [] : [ours]), ...written])];
  const busy = await sessionsInOtherHands(agent, env, paths, ours);
  const say = (line: string) => settings.say(`guard: after ${basename(program)} exited, ${line}`);
  const free = paths.filter((path) => {
    const exitStamp = path === ours ? oursAtExit : atExit.get(path);
    const why = busy.get(path) ?? (stampOf(path) !== exitStamp ? `it was written to after ${basename(program)} exited` : undefined);
    if (why !== undefined) say(`left ${path} as it is: ${why}`);
    return why === undefined;
  });
  await repair(free, say);
}
