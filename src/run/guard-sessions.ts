import type { CheckpointPlace } from '../cache/checkpoint-file.js';
import { reason, UserError } from '../errors.js';
import type { TranscriptFormat } from '../formats/format.js';
import { documentFormat, formats } from '../formats/registry.js';
import { statSync } from '../io/named-fs.js';
import type { Env, SessionAgent } from '../io/sessions/index.js';
import { headOf } from '../io/sessions/walk.js';
import { loadBytes } from '../pipeline/load-transcript.js';
import { repairRewrite, rewriteInput, type RepairReport } from '../pipeline/rewrite.js';
import { slimRewrite } from '../pipeline/slim-rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { describeRepair } from '../report/repair-text.js';
import { openGuardCache, unlessKnown } from '../cache/known-outcome.js';
import type { CacheInput } from '../cache/open-cache.js';

/** Each session file of an agent, with its size and modification time: what tells that the agent wrote to it. */
export type Snapshot = Map<string, string>;

export function snapshot(agent: SessionAgent, env: Env): Snapshot {
  const stamps: Snapshot = new Map();
  for (const session of agent.sessions(env)) {
    const stamp = stampOf(session.path);
    if (stamp !== undefined) stamps.set(session.path, stamp);
  }
  return stamps;
}

/** `<size>:<mtime>` of a regular file, undefined when there is none. */
export function stampOf(path: string): string | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info?.isFile() ? `${info.size}:${info.mtimeMs}` : undefined;
}

/**
 * The sessions written between `before` and `after` (new, grown, or touched) that the agent's own
 * `--continue` would take in `cwd`: its own session, not one another running copy writes in another project.
 */
export function writtenBetween(before: Snapshot, after: Snapshot, agent: SessionAgent, env: Env, cwd: string): string[] {
  const sessions = agent.sessions(env).filter((session) => after.get(session.path) !== before.get(session.path));
  return sessions.filter((session) => agent.continuable?.(session, cwd, env) ?? true).map((session) => session.path);
}

/** What the first lines of a file say it is; bytes enough for a few real lines. */
const HEAD_BYTES = 64 * 1024;

/**
 * The format a file reads as, decided by the loader itself from the file's first whole lines (the
 * first line some format calls its own, else where it lives or what its lines resemble). A
 * format's one-document file is known by its path.
 */
function formatOfHead(path: string, agentFormat: TranscriptFormat): string | undefined {
  if (documentFormat(path, agentFormat) !== undefined) return agentFormat.name;
  const head = headOf(path, HEAD_BYTES) ?? '';
  // The last piece may be cut at the byte limit: only whole lines are read.
  const whole = (statSync(path, { throwIfNoEntry: false })?.size ?? 0) <= HEAD_BYTES ? head : head.slice(0, head.lastIndexOf('\n') + 1);
  return loadBytes(Buffer.from(whole), undefined, undefined, path).format;
}

/**
 * Why the file at `path` is no session `agent` reads, or undefined when it is one: a file that
 * does not read as the agent's format (a dataset given to `pi --session`) is left as it is.
 */
export function notASessionOf(path: string, agent: SessionAgent): string | undefined {
  const format = formats.find((candidate) => candidate.name === agent.format);
  const found = format === undefined ? undefined : formatOfHead(path, format);
  if (format !== undefined && found === format.name) return undefined;
  return `it is not a ${agent.format} session (${found === undefined ? 'no line of it is one' : `it reads as ${found}`})`;
}

/**
 * `repair --in-place` of one session of `agent` (lock check, backup, atomic write; a clean file is
 * left untouched), read as the agent's format: the line to print about it, or undefined when
 * nothing was wrong.
 */
export async function repairSession(path: string, agent: SessionAgent, mode: RepairMode, slim = false, cache: CacheInput = {}): Promise<string | undefined> {
  // A session checked before and unchanged since is not read again (docs/cache.md).
  const known = openGuardCache(cache, agent.format, mode, slim);
  return unlessKnown(known, path, () => repairUncached(path, agent, mode, slim, known?.checkpoints(agent.format)));
}

async function repairUncached(path: string, agent: SessionAgent, mode: RepairMode, slim: boolean, checkpoints: CheckpointPlace | undefined): Promise<string | undefined> {
  if (statSync(path, { throwIfNoEntry: false })?.size === 0) return undefined;
  const foreign = notASessionOf(path, agent);
  if (foreign !== undefined) return `left ${path} as it is: ${foreign}`;
  const format = formats.find((candidate) => candidate.name === agent.format);
  let report;
  try {
    report = await rewriteInput(path, undefined, { ...repairRewrite(mode), format, checkpoints }, { kind: 'in-place', backup: true, force: false });
  } catch (error) {
    return `could not repair ${path}: ${error instanceof UserError ? error.message : reason(error)}`;
  }
  const slimmed = slim ? await slimSession(path, format) : undefined;
  const findings = slimmed?.report?.findings ?? report.findings;
  const left = findings.filter((finding) => finding.severity === 'error').length;
  if (!report.repair.changed && slimmed?.line === undefined && left === 0) return undefined;
  const after = left === 0 ? '' : `; ${left} error${left === 1 ? '' : 's'} left (transcript-doctor scan ${path})`;
  const done = [report.repair.changed ? describeRepair(report.repair, false, path) : undefined, slimmed?.line].filter(Boolean).join('; ');
  return `${path}: ${done || describeRepair(report.repair, false, path)}${after}`;
}

/** `guard --slim`: the session slimmed in place when its request does not fit; the words for what slim did, when it did something. */
async function slimSession(path: string, format: TranscriptFormat | undefined): Promise<{ report?: RepairReport; line?: string }> {
  const rewrite = { ...slimRewrite({}), format };
  let report: RepairReport;
  try {
    report = await rewriteInput(path, undefined, rewrite, { kind: 'in-place', backup: true, force: false });
  } catch (error) {
    return { line: `could not slim ${path}: ${error instanceof UserError ? error.message : reason(error)}` };
  }
  rewrite.finish?.(report);
  if (!report.repair.changed || report.slim === undefined) return { report };
  const { before, after, fits } = report.slim;
  return { report, line: `slimmed from about ${before.tokens.toLocaleString('en-US')} to ${after.tokens.toLocaleString('en-US')} tokens${fits ? '' : ', still over its target'}` };
}
