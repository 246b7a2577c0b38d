import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formats } from '../../../src/formats/registry.js';
import { analyze, type Analysis } from '../../../src/model/analysis.js';
import { loadTranscriptFile } from '../../../src/pipeline/load-file.js';
import { applyPlan } from '../../../src/repair/apply.js';
import { emptyPlan } from '../../../src/repair/plan.js';
import { withParsedLines } from '../../../src/slim/compaction/lines.js';
import { compactionCut, planCompaction, type CompactionPlan } from '../../../src/slim/compaction/plan.js';
import { summarizeLocally } from '../../../src/slim/compaction/summary.js';

export interface Compacted {
  /** The file as written after the compaction. */
  text: string;
  plan: CompactionPlan;
  before: Analysis;
  /** The written file read back by our own loader. */
  after: Analysis;
}

/** Loads `text` (saved as `name`), compacts it keeping from the cut at or before replay position `wanted`, writes it, and reads it back. */
export async function compact(text: string, wanted: number, name = 'session.jsonl', summary?: string): Promise<Compacted> {
  const dir = mkdtempSync(join(tmpdir(), 'td-compaction-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const transcript = await loadTranscriptFile(file);
  const format = formats.find((candidate) => candidate.name === transcript.format)!;
  const before = analyze(transcript);
  const plan = withParsedLines(file, transcript.entries, (read) => {
    const keepFrom = compactionCut(before, wanted, read);
    if (keepFrom === undefined) throw new Error(`no cut at or before ${wanted}`);
    return planCompaction(before, { keepFrom, summary: summary ?? summarizeLocally(before, keepFrom, read), read, tokensBefore: 123_456, fallbackTime: new Date(Date.UTC(2026, 0, 2)) });
  });
  if (plan === undefined) throw new Error('no compaction planned');
  const repair = { ...emptyPlan(), skip: plan.skip, edits: plan.edits, after: plan.after };
  const chunks: Buffer[] = [];
  await applyPlan({ path: file, transcript, format }, repair, async (chunk) => {
    for (const piece of Buffer.isBuffer(chunk) ? [chunk] : chunk) chunks.push(Buffer.from(piece));
  });
  const written = Buffer.concat(chunks).toString('utf8');
  const out = join(dir, `out-${name}`);
  writeFileSync(out, written);
  return { text: written, plan, before, after: analyze(await loadTranscriptFile(out)) };
}

/** The line numbers (1-based) of the replayed entries, in replay order. */
export function replayedLines(analysis: Analysis): number[] {
  return Array.from(analysis.replay.context.indices, (index) => analysis.entries.line(index));
}

/** The replayed path's pairing problems, by kind, empty when every call has its result. */
export function pairingProblems(analysis: Analysis): Record<string, number> {
  const { pairing } = analysis.replay;
  const counts: Record<string, number> = { missing: pairing.missing.length, displaced: pairing.displaced.length, duplicates: pairing.duplicates.length, orphans: pairing.orphans.length, duplicateCalls: pairing.duplicateCalls.length };
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));
}
