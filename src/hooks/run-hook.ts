import { scan } from '../api/scan.js';
import { clipped } from '../errors.js';
import { agentNamed } from '../io/sessions/index.js';
import { ownSession } from '../io/sessions/own-session.js';
import { repairRewrite } from '../pipeline/rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { prepareRewrite, runRewrite } from '../run/rewrite.js';
import type { HookEvent, SettingsAgent } from './agents.js';

/** What a hook says: `stdout` for the agent to read (JSON), `stderr` for its log. */
export interface HookOutput {
  stdout?: string;
  stderr?: string;
}

/**
 * One hook call. session-start (on resume only) checks the session file and, when it has
 * errors, says so in one line naming the fix, in the shape the agent shows its user: the agent
 * has already read the file by then, so a repair would count only next time, and is left to
 * session-end. session-end repairs the file in place exactly as `repair --in-place` does (lock
 * check, backup, atomic write), so the next resume reads a clean file.
 *
 * The input names the file, and whoever can write a hook's input must not reach any other file
 * through it: only one of the calling agent's own session files, in its own session folders
 * (see ownSession), read as the agent's own format, is read or written. Anything else throws,
 * which the command prints as one line.
 */
export async function runHook(event: HookEvent, agent: SettingsAgent, input: Record<string, unknown>, mode: RepairMode): Promise<HookOutput> {
  if (event === 'session-start' && typeof input.source === 'string' && input.source !== 'resume') return {};
  const given = agent.transcriptPath(input);
  if (given === undefined) return {};
  const sessions = agentNamed(agent.name)!;
  const own = ownSession(sessions, given, process.env);
  // No file yet (a session that never got a turn), or one gone already: nothing to look after.
  if (own.kind === 'missing') return {};
  if (own.kind === 'foreign') throw new Error(`${clipped(given, 300)}: not a ${agent.title} session file (${own.reason}); left alone`);
  return event === 'session-start' ? warnIfDamaged(own.path, agent, sessions.format) : repairForNextTime(own.path, sessions.format, mode);
}

async function warnIfDamaged(path: string, agent: SettingsAgent, format: string): Promise<HookOutput> {
  // The agent waits for this: a session found clean before and unchanged since is not read again.
  const report = await scan(path, { jobs: 1, cache: true });
  const found = report.files[0]?.format ?? null;
  if (found !== format) throw new Error(`${path}: not a ${agent.title} session file (${found === null ? 'it is in no transcript format this tool reads' : `it reads as ${found}`}); left alone`);
  const errors = report.files.flatMap((file) => file.findings.filter((finding) => finding.severity === 'error'));
  if (errors.length === 0) return {};
  const rules = [...new Set(errors.map((finding) => finding.rule))];
  const message =
    `transcript-doctor: this session's file has ${errors.length} error${errors.length === 1 ? '' : 's'} (${rules.slice(0, 3).join(', ')}${rules.length > 3 ? ', …' : ''}) ` +
    `that providers may reject; it is repaired when the session ends, or now: transcript-doctor repair --in-place ${quoted(path)}`;
  return agent.warning === 'systemMessage' ? { stdout: `${JSON.stringify({ systemMessage: message })}\n` } : { stderr: `${message}\n` };
}

async function repairForNextTime(path: string, format: string, mode: RepairMode): Promise<HookOutput> {
  // The format is detected, not imposed: a file that reads as another format (or none) is refused before anything is written.
  const prepared = prepareRewrite({ ...repairRewrite(mode), onlyFormat: format }, undefined);
  // The one file, as it is: never a glob or a session id to expand.
  const { reports, failures } = await runRewrite([{ kind: 'file', path }], prepared, { inPlace: true, backup: true }, 'repair', undefined);
  if (failures.length > 0) return { stderr: `transcript-doctor: ${failures[0]!.message}\n` };
  const repair = reports[0]?.repair;
  if (repair?.changed !== true) return {};
  return { stderr: `transcript-doctor: repaired ${path}${repair.backupPath === undefined ? '' : ` (backup: ${repair.backupPath})`}\n` };
}

/** The path as the user would type it in sh. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
