import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { codeOf, reason } from '../errors.js';
import { passSignalsOn } from '../io/exit-cleanup.js';

/** How the agent ended: its exit code (128 + the signal's number when a signal ended it, as shells say), or why it never started. */
export type ChildEnd = { code: number; notStarted?: string };

/**
 * Signals passed on to the agent instead of ending the guard: the guard must outlive the agent to
 * repair what it leaves. On a terminal, Ctrl-C already reaches the agent (same process group), so
 * SIGINT is passed on only when no terminal is the input: a second copy would count as a second
 * Ctrl-C, which makes Claude Code and Codex quit.
 */
const PASSED_ON = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

/**
 * Runs the agent with the terminal (stdin, stdout, stderr) handed over, and waits for it. Once it
 * has ended, those signals are no longer passed on, and the temp-file cleanup's handlers still
 * leave them alone until `release`: the guard's post-exit repair stops on them itself (guard-repair.ts).
 */
export function runAgent(command: string, args: readonly string[], passInterrupt: boolean): { ended: Promise<ChildEnd>; release: () => void } {
  let child: ReturnType<typeof spawn> | undefined;
  // The temp-file cleanup's own handlers would end the guard on these signals once a repair has run.
  const keepAlive = passSignalsOn();
  const handlers = PASSED_ON.map((signal) => {
    const handler = () => {
      if (signal === 'SIGINT' && !passInterrupt) return;
      if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const ended = new Promise<ChildEnd>((resolve) => {
    let settled = false;
    const settle = (end: ChildEnd) => {
      if (settled) return;
      settled = true;
      handlers.forEach(([signal, handler]) => process.off(signal, handler));
      resolve(end);
    };
    try {
      child = spawn(command, [...args], { stdio: 'inherit' });
    } catch (error) {
      settle({ code: 126, notStarted: reason(error) });
      return;
    }
    // As a shell says it: 127 when there is no such command, 126 when it cannot be run.
    child.on('error', (error) => settle({ code: codeOf(error) === 'ENOENT' ? 127 : 126, notStarted: codeOf(error) === 'ENOENT' ? 'command not found' : reason(error) }));
    child.on('exit', (code, signal) => settle({ code: code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)) }));
  });
  return { ended, release: keepAlive };
}
