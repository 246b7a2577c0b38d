import { reason, UserError } from '../errors.js';
import { statSync } from '../io/named-fs.js';
import type { Env, SessionAgent } from '../io/sessions/index.js';
import { repairRewrite, rewriteInput } from '../pipeline/rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { describeRepair } from '../report/repair-text.js';

/** Each session file of an agent, with its size and modification time: what tells that the agent wrote to it. */
export type Snapshot = Map<string, string>;

export function snapshot(agent: SessionAgent, env: Env): Snapshot {
  const stamps: Snapshot = new Map();
  for (const session of agent.sessions(env)) {
    const info = statSync(session.path, { throwIfNoEntry: false });
    if (info?.isFile()) stamps.set(session.path, `${info.size}:${info.mtimeMs}`);
  }
  return stamps;
}

/**
 * The sessions written since `before` (new, grown, or touched) that the agent's own `--continue`
 * would take in `cwd`: its own session, not one another running copy writes in another project.
 */
export function writtenSince(before: Snapshot, agent: SessionAgent, env: Env, cwd: string): string[] {
  const after = snapshot(agent, env);
  const sessions = agent.sessions(env).filter((session) => after.get(session.path) !== before.get(session.path));
  return sessions.filter((session) => agent.continuable?.(session, cwd, env) ?? true).map((session) => session.path);
}

/**
 * `repair --in-place` of one session (lock check, backup, atomic write; a clean file is left
 * untouched): the line to print about it, or undefined when nothing was wrong.
 */
export async function repairSession(path: string, mode: RepairMode): Promise<string | undefined> {
  let report;
  try {
    report = await rewriteInput(path, undefined, repairRewrite(mode), { kind: 'in-place', backup: true, force: false });
  } catch (error) {
    return `could not repair ${path}: ${error instanceof UserError ? error.message : reason(error)}`;
  }
  const left = report.findings.filter((finding) => finding.severity === 'error').length;
  if (!report.repair.changed && left === 0) return undefined;
  const after = left === 0 ? '' : `; ${left} error${left === 1 ? '' : 's'} left (transcript-doctor scan ${path})`;
  return `${path}: ${describeRepair(report.repair, false, path)}${after}`;
}
