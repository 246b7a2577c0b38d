import { scan } from '../api/scan.js';
import type { TranscriptFormat } from '../formats/format.js';
import { formats } from '../formats/registry.js';
import { statSync } from '../io/named-fs.js';
import { repairRewrite } from '../pipeline/rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { prepareRewrite, runRewrite } from '../run/rewrite.js';
import { resolveSources } from '../run/sources.js';
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
 */
export async function runHook(event: HookEvent, agent: SettingsAgent, input: Record<string, unknown>, mode: RepairMode): Promise<HookOutput> {
  if (event === 'session-start' && typeof input.source === 'string' && input.source !== 'resume') return {};
  const path = agent.transcriptPath(input);
  // No file yet (a session that never got a turn), or one gone already: nothing to look after.
  if (path === undefined || statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return {};
  // The agent's own format when this build reads it; otherwise the file tells (or nothing matches, and nothing is done).
  const format = formats.find((candidate) => candidate.name === agent.name);
  return event === 'session-start' ? warnIfDamaged(path, agent, format) : repairForNextTime(path, format, mode);
}

async function warnIfDamaged(path: string, agent: SettingsAgent, format: TranscriptFormat | undefined): Promise<HookOutput> {
  const report = await scan(path, { jobs: 1, ...(format === undefined ? {} : { format: format.name }) });
  const errors = report.files.flatMap((file) => file.findings.filter((finding) => finding.severity === 'error'));
  if (errors.length === 0) return {};
  const rules = [...new Set(errors.map((finding) => finding.rule))];
  const message =
    `transcript-doctor: this session's file has ${errors.length} error${errors.length === 1 ? '' : 's'} (${rules.slice(0, 3).join(', ')}${rules.length > 3 ? ', …' : ''}) ` +
    `that providers may reject; it is repaired when the session ends, or now: transcript-doctor repair --in-place ${quoted(path)}`;
  return agent.warning === 'systemMessage' ? { stdout: `${JSON.stringify({ systemMessage: message })}\n` } : { stderr: `${message}\n` };
}

async function repairForNextTime(path: string, format: TranscriptFormat | undefined, mode: RepairMode): Promise<HookOutput> {
  const prepared = prepareRewrite({ ...repairRewrite(mode), ...(format === undefined ? {} : { format }) }, undefined);
  const sources = await resolveSources(path, prepared.ignores);
  const { reports, failures } = await runRewrite(sources, prepared, { inPlace: true, backup: true }, 'repair', undefined);
  if (failures.length > 0) return { stderr: `transcript-doctor: ${failures[0]!.message}\n` };
  const repair = reports[0]?.repair;
  if (repair?.changed !== true) return {};
  return { stderr: `transcript-doctor: repaired ${path}${repair.backupPath === undefined ? '' : ` (backup: ${repair.backupPath})`}\n` };
}

/** The path as the user would type it in sh. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
