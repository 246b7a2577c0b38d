import type { Readable } from 'node:stream';
import { analyze } from '../model/analysis.js';
import { rules as allRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import type { TranscriptFormat } from '../formats/format.js';
import type { FileReport } from './finding.js';
import { liveLock } from '../io/lock.js';
import { loadTranscriptFile } from './load-file.js';
import { loadTranscript } from './load-transcript.js';
import type { Transcript } from '../model/transcript.js';
import type { ProviderId } from '../providers/provider-id.js';
import { runRules } from './run-rules.js';

/**
 * Files one thread scans at once, so that while one waits on the file system (reading a large
 * file, looking for a running agent's lock) another is parsed; in each thread of `--jobs` too.
 */
export const IN_FLIGHT = 4;

/** Reads, decodes, analyses and checks a stream. Throws only for I/O errors. */
export async function scanSource(path: string, source: Readable, rules: readonly Rule[] = allRules, format?: TranscriptFormat, provider?: ProviderId): Promise<FileReport> {
  return check(path, await loadTranscript(source, format), rules, provider);
}

export async function scanFile(path: string, rules: readonly Rule[] = allRules, format?: TranscriptFormat, twoThreads = true, provider?: ProviderId): Promise<FileReport> {
  const transcript = await loadTranscriptFile(path, format, twoThreads);
  const live = mayEndInCall(transcript) ? await liveLock(path) : undefined;
  if (live !== undefined) transcript.live = live;
  return check(path, transcript, rules, provider);
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

function check(path: string, transcript: Transcript, rules: readonly Rule[], provider: ProviderId | undefined): FileReport {
  transcript.provider = provider;
  return { path, format: transcript.format ?? null, findings: runRules(analyze(transcript), rules) };
}
