import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { realpathSync } from '../io/named-fs.js';
import { isBuiltIn, type SessionAgent } from '../io/sessions/index.js';
import { removeOwnTemps } from '../io/stale-temps.js';
import type { RepairMode } from '../repair/plan.js';
import { repairSession } from './guard-sessions.js';
import type { CacheInput } from '../cache/open-cache.js';
import { knownOutcome, openGuardCache } from '../cache/known-outcome.js';

/** What the repair thread is given: the session, whose it is, how to repair, and the cell counting its commits. */
export interface RepairJob {
  path: string;
  agent: string;
  mode: RepairMode;
  /** Also slim the session when its request does not fit (`guard --slim`). */
  slim: boolean;
  busy: SharedArrayBuffer;
  /** The scan cache's options (--no-cache, --cache-dir). */
  cache: CacheInput;
}

const WORKER = new URL('./guard-repair-worker.js', import.meta.url);
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * The post-exit repairs, each in a worker thread, stopped by SIGTERM, SIGINT or SIGHUP from the
 * moment this is called: the repair's thread is ended where it is (a repair can compute for
 * seconds without a pause, during which no signal handler of the main thread could run), its temp
 * file removed, and the process exits 128 + the signal's number. A thread in the middle of a
 * commit (replacing the file, then checking that no writer lost a line) is let finish it first:
 * the session is then either as it was or repaired, never half of each. `done` removes the handlers.
 */
export function stoppableRepairs(agent: SessionAgent, mode: RepairMode, slim = false, cache: CacheInput = {}): { repair: (paths: readonly string[], said: (line: string) => void) => Promise<void>; done: () => void } {
  const busy = new SharedArrayBuffer(4);
  const cell = new Int32Array(busy);
  let current: { worker: Worker; path: string } | undefined;
  let stopping = false;
  const stop = async (signal: (typeof SIGNALS)[number]) => {
    if (stopping) return;
    stopping = true;
    while (Atomics.load(cell, 0) > 0) await sleep(5);
    const running = current;
    if (running !== undefined) {
      await running.worker.terminate();
      await removeOwnTemps(realOf(running.path));
    }
    process.exit(128 + constants.signals[signal]);
  };
  const handlers = SIGNALS.map((signal) => [signal, () => void stop(signal)] as const);
  handlers.forEach(([signal, handler]) => process.on(signal, handler));
  const repair = async (paths: readonly string[], said: (line: string) => void) => {
    for (const path of paths) {
      if (stopping) break;
      // A session known unchanged since its last check needs no thread (each costs a start-up).
      const known = await knownOutcome(openGuardCache(cache, agent.format, mode, slim), path);
      // A registered agent is known only to this thread's table, so its session is repaired here.
      const threaded = isBuiltIn(agent) && existsSync(fileURLToPath(WORKER));
      const line = known !== undefined ? known.line : threaded ? await inThread({ path, agent: agent.name, mode, slim, busy, cache }, (worker) => (current = { worker, path })) : await repairSession(path, agent, mode, slim, cache);
      if (stopping) await new Promise(() => {}); // the stop handler ends the process
      current = undefined;
      if (line !== undefined) said(line);
    }
  };
  return { repair, done: () => handlers.forEach(([signal, handler]) => process.off(signal, handler)) };
}

function inThread(job: RepairJob, started: (worker: Worker) => void): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job });
    started(worker);
    worker.once('message', (message: { line?: string }) => resolve(message.line));
    worker.once('error', reject);
    worker.once('exit', (code) => resolve(code === 0 ? undefined : `could not repair ${job.path}: its thread ended with code ${code}`));
  });
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
