import { basename, resolve } from 'node:path';
import { realpathSync } from '../io/named-fs.js';
import { filesWrittenBy, otherProcesses, workingFolderOf, type ProcessView } from '../io/processes.js';
import { agentOfCommand, type Env, type SessionAgent } from '../io/sessions/index.js';

/** Programs that run an agent's script: `node /usr/bin/claude` is Claude Code too. */
const INTERPRETERS = /^(node|nodejs|bun|deno)(\.exe)?$/i;

/** The arguments after the agent's command, when the process runs `agent`; undefined when it runs something else. */
function agentArgs(view: ProcessView, agent: SessionAgent): string[] | undefined {
  const [first, second] = view.argv;
  if (first !== undefined && agentOfCommand(first) === agent) return view.argv.slice(1);
  if (second !== undefined && INTERPRETERS.test(basename(first!)) && agentOfCommand(second) === agent) return view.argv.slice(2);
  return undefined;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Which of `sessions` another live process may be writing, each with the reason, read from /proc
 * (Linux; elsewhere none is known). A process that holds a session open for writing is writing
 * it. A running copy of the agent that holds none open (Claude Code and pi append and close) may
 * be writing any session of the project it works in, whatever its command line says (it can
 * switch sessions inside); only `resumed`, the session the guarded agent's own command line
 * named, is not taken for one of them.
 */
export async function sessionsInOtherHands(agent: SessionAgent, env: Env, sessions: readonly string[], resumed: string | undefined): Promise<Map<string, string>> {
  const busy = new Map<string, string>();
  const processes = sessions.length === 0 ? [] : otherProcesses();
  if (processes === undefined || processes.length === 0) return busy;
  const byReal = new Map(sessions.map((path) => [realOf(path), path]));
  const wanted = new Set(byReal.keys());
  for (const [i, view] of processes.entries()) {
    // A pause now and then: a signal that stops the guard is handled between processes, not after all of them.
    if (i % 32 === 31) await new Promise((resolve) => setImmediate(resolve));
    const held = filesWrittenBy(view.pid, wanted);
    for (const real of held) busy.set(byReal.get(real)!, `process ${view.pid} (${basename(view.argv[0]!)}) holds it open for writing`);
    const args = agentArgs(view, agent);
    if (args === undefined || held.length > 0) continue;
    const cwd = workingFolderOf(view.pid);
    if (cwd === undefined) continue;
    for (const path of sessions) {
      if (path === resumed || busy.has(path)) continue;
      const session = { agent: agent.name, path, id: '' };
      if (agent.continuable?.(session, cwd, env) ?? true) busy.set(path, `${agent.commands[0]} process ${view.pid} works in ${cwd} and may be writing it`);
    }
  }
  return busy;
}
