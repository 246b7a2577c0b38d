import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { analyze } from '../model/analysis.js';
import { rules as allRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import type { FileReport } from './finding.js';
import { loadTranscript } from './load-transcript.js';
import { runRules } from './run-rules.js';

/** Reads, decodes, analyses and checks one source. Throws only for I/O errors. */
export async function scanSource(path: string, source: Readable, rules: readonly Rule[] = allRules): Promise<FileReport> {
  const transcript = await loadTranscript(source);
  const findings = runRules(analyze(transcript), rules);
  return { path, format: transcript.format ?? null, findings };
}

export function scanFile(path: string, rules?: readonly Rule[]): Promise<FileReport> {
  return scanSource(path, createReadStream(path, { highWaterMark: 1 << 20 }), rules);
}
