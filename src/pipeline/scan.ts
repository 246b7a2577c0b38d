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
import { runRules } from './run-rules.js';
import { conversationChecker, withConversationFindings } from './conversation.js';
import type { Finding } from './finding.js';

/**
 * Files one thread scans at once, so that while one waits on the file system (reading a large
 * file, looking for a running agent's lock) another is parsed; in each thread of `--jobs` too.
 */
export const IN_FLIGHT = 4;

/** Reads, decodes, analyses and checks a stream. Throws only for I/O errors. */
export async function scanSource(path: string, source: Readable, rules: readonly Rule[] = allRules, format?: TranscriptFormat): Promise<FileReport> {
  const lines = conversationChecker(rules);
  return check(path, await loadTranscript(source, format, lines.take), rules, lines.findings);
}

export async function scanFile(path: string, rules: readonly Rule[] = allRules, format?: TranscriptFormat, twoThreads = true): Promise<FileReport> {
  // A file of conversations (requests, datasets) is judged line by line as it is read.
  const lines = conversationChecker(rules);
  const transcript = await loadTranscriptFile(path, format, twoThreads, lines.take);
  const live = mayEndInCall(transcript) ? await liveLock(path) : undefined;
  if (live !== undefined) transcript.live = live;
  return check(path, transcript, rules, lines.findings);
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

function check(path: string, transcript: Transcript, rules: readonly Rule[], lines: readonly Finding[]): FileReport {
  return { path, format: transcript.format ?? null, findings: withConversationFindings(runRules(analyze(transcript), rules), lines) };
}
