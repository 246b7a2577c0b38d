import type { Readable } from 'node:stream';
import { analyze, type Analysis } from '../model/analysis.js';
import { rules as allRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import type { TranscriptFormat } from '../formats/format.js';
import type { FileReport } from './finding.js';
import { liveLock } from '../io/lock.js';
import { withReadablePath } from '../io/regular-file.js';
import { loadCheckpointed } from './load-checkpointed.js';
import { loadTranscript } from './load-transcript.js';
import type { Transcript } from '../model/transcript.js';
import type { ProviderId } from '../providers/provider-id.js';
import { runRules } from './run-rules.js';
import { hasSizeFinding, sizeSummary } from './size-summary.js';
import { conversationChecker, withConversationFindings } from './conversation.js';
import type { Finding } from './finding.js';
import type { CheckpointPlace } from '../cache/checkpoint-file.js';

/** How one file is judged beyond its rules and format, and what is gathered beyond findings. */
export interface ScanExtras {
  /** The provider every file is judged against (`--provider`); otherwise the one each file talks to. */
  provider?: ProviderId;
  /** The share of the context window past which a session is near it (config `size.nearWindow`). */
  nearWindow?: number;
  /** The conversation around each finding, for reporters that draw it (html); only when a reporter needs it. */
  timeline?: boolean;
  /** Where a file seen before may be read on from (the scan cache's checkpoints); it changes no verdict. */
  checkpoints?: CheckpointPlace;
}

/**
 * Files one thread scans at once, so that while one waits on the file system (reading a large
 * file, looking for a running agent's lock) another is parsed; in each thread of `--jobs` too.
 */
export const IN_FLIGHT = 4;

/** Reads, decodes, analyses and checks a stream. Throws only for I/O errors. */
export async function scanSource(path: string, source: Readable, rules: readonly Rule[] = allRules, format?: TranscriptFormat, extras: ScanExtras = {}): Promise<FileReport> {
  const lines = conversationChecker(rules, extras.provider);
  return check(undefined, path, await loadTranscript(source, format, lines.take), rules, extras, lines.findings);
}

export async function scanFile(path: string, rules: readonly Rule[] = allRules, format?: TranscriptFormat, twoThreads = true, extras: ScanExtras = {}): Promise<FileReport> {
  // A file of conversations (requests, datasets) is judged line by line as it is read.
  const lines = conversationChecker(rules, extras.provider);
  // The path is also the report's name; a name that is not UTF-8 is read through withReadablePath.
  const transcript = await withReadablePath(path, async (reading) => (await loadCheckpointed(reading, format, twoThreads, lines, extras.checkpoints)).transcript);
  const live = mayEndInCall(transcript) ? await liveLock(path) : undefined;
  if (live !== undefined) transcript.live = live;
  return check(path, path, transcript, rules, extras, lines.findings);
}

/**
 * Whether the last turn of the file calls tools: only then can a running agent excuse anything,
 * so only then are its lock files looked for (a folder of thousands of sessions is spared the lookups).
 */
function mayEndInCall(transcript: Transcript): boolean {
  for (let at = transcript.entries.length - 1; at >= 0; at--) {
    const entry = transcript.entries.at(at);
    if (entry.role === 'assistant' && entry.toolCalls !== undefined) return true;
    if (entry.role === 'user' || entry.role === 'other') return false;
  }
  return false;
}

/** `file`: where the transcript can be read again, for the words of a timeline; undefined for a stream. `lines`: findings of a file of conversations. */
function check(file: string | undefined, path: string, transcript: Transcript, rules: readonly Rule[], extras: ScanExtras, lines: readonly Finding[]): FileReport | Promise<FileReport> {
  transcript.provider = extras.provider;
  if (extras.nearWindow !== undefined) transcript.nearWindow = extras.nearWindow;
  const analysis = analyze(transcript);
  const report: FileReport = { path, format: transcript.format ?? null, findings: withConversationFindings(runRules(analysis, rules), lines) };
  if (hasSizeFinding(report.findings)) report.size = sizeSummary(analysis);
  if (extras.timeline !== true || report.findings.length === 0) return report;
  return withTimeline(report, analysis, file);
}

/** Loaded only when asked for: a scan for any other reporter never reads a line twice nor loads the secret masking. */
async function withTimeline(report: FileReport, analysis: Analysis, file: string | undefined): Promise<FileReport> {
  report.timeline = await (await import('./timeline-text.js')).gatherTimeline(analysis, report.findings, file);
  return report;
}
