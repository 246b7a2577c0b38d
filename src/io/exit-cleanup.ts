import { rmSync } from './named-fs.js';
import { constants } from 'node:os';

/**
 * Files and folders that must not outlive the process (spooled input, temp files): removed when
 * it exits, and on the signals a terminal, a supervisor or a closed session sends, after which the
 * process exits with the conventional 128 + signal number. SIGKILL cannot be caught; the next run
 * sweeps what it leaves (stale-temps.ts, spool.ts).
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Signal = (typeof SIGNALS)[number];

const paths = new Set<string>();
let installed = false;
let uninterruptible = 0;
let pending: Signal | undefined;
let relaying = 0;
/** Set in a worker thread whose main thread must not stop it mid-commit (see shareInterruption). */
let shared: Int32Array | undefined;

/** Registers `path` for removal on exit; call the returned function once it is gone or kept. */
export function removeOnExit(path: string): () => void {
  install();
  paths.add(path);
  return () => {
    paths.delete(path);
  };
}

/**
 * Runs `work` with signals held until it settles: between replacing a file and checking that no
 * writer lost a line, stopping halfway would leave the one copy of those lines in a temp name.
 */
export async function withoutInterruption<T>(work: () => Promise<T>): Promise<T> {
  uninterruptible += 1;
  if (shared !== undefined) Atomics.add(shared, 0, 1);
  try {
    return await work();
  } finally {
    uninterruptible -= 1;
    if (shared !== undefined) Atomics.sub(shared, 0, 1);
    if (uninterruptible === 0 && pending !== undefined) leave(pending);
  }
}

/**
 * For `guard`: until the returned function is called, these signals are the guard's to pass on to
 * the agent it runs, and end nothing here (a guard that died of the agent's Ctrl-C could not
 * repair what the agent leaves). Nothing is registered for removal meanwhile: every write the
 * guard makes is done before the agent starts or after it has ended.
 */
export function passSignalsOn(): () => void {
  relaying += 1;
  let released = false;
  return () => {
    if (!released) relaying -= 1;
    released = true;
  };
}

/**
 * In a worker thread: counts this thread's uninterruptible work in `flag`'s first cell, where the
 * main thread, which alone receives signals, reads it before it stops the thread.
 */
export function shareInterruption(flag: Int32Array): void {
  shared = flag;
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeAll);
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (relaying > 0) return;
      if (uninterruptible > 0) pending ??= signal;
      else leave(signal);
    });
  }
}

function leave(signal: Signal): never {
  removeAll();
  process.exit(128 + constants.signals[signal]);
}

function removeAll(): void {
  for (const path of paths) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Exiting anyway; the next run sweeps what is left.
    }
  }
  paths.clear();
}
