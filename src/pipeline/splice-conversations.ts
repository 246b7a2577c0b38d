import type { TranscriptFormat } from '../formats/format.js';
import { stat } from '../io/named-fs.js';
import { splicedCopy, type Splice } from '../io/spliced-copy.js';
import { EntryStore } from '../model/entry-store.js';
import type { Transcript } from '../model/transcript.js';
import { addCounts, emptyCounts } from '../repair/plan.js';
import type { Finding } from './finding.js';
import type { Chunk } from './passes.js';
import type { ConversationPlan, WrittenConversations } from './conversation-plan.js';

/**
 * Whether the second read can copy the file around its changing lines: every one is repaired
 * already, and nothing else changes (no broken, glued or split lines, no byte order mark, the
 * last line a record with its ending). A file that grew since the first read is read line by
 * line, with what was added.
 */
export async function copiesAround(path: string, transcript: Transcript, plan: ConversationPlan): Promise<boolean> {
  const last = transcript.lastLine;
  if (transcript.lineIssues.length > 0 || transcript.bom || last === undefined || last.eol === 'none' || last.line !== transcript.lines) return false;
  for (const line of plan.changing) if (!plan.repaired.has(line)) return false;
  return (await stat(path)).size === transcript.bytes;
}

/** The second read as a copy with the repaired lines put in: lines keep their numbers, and every other byte its place. */
export async function writeSpliced(source: { path: string; transcript: Transcript; format: TranscriptFormat }, plan: ConversationPlan, write: (chunk: Chunk) => Promise<void>): Promise<WrittenConversations> {
  const { transcript } = source;
  const rewritten = [...plan.changing].sort((a, b) => a - b);
  const counts = emptyCounts();
  const splices: Splice[] = [];
  const byLine: Array<[number, Finding[]]> = [...plan.findings];
  let bytes = transcript.bytes;
  for (const line of rewritten) {
    const done = plan.repaired.get(line)!;
    if (done.bytes !== undefined) {
      splices.push({ start: done.start, end: done.end, bytes: done.bytes });
      bytes += done.bytes.length - (done.end - done.start);
    }
    if (done.counts !== undefined) addCounts(counts, done.counts);
    byLine.push([line, done.findings.map((finding) => ({ ...finding, line }))]);
  }
  await splicedCopy(source.path, transcript.bytes, splices, write);
  const output: Transcript = {
    format: source.format.name,
    entries: new EntryStore(),
    lineIssues: [],
    bom: false,
    bytes,
    lines: transcript.lines,
    parsedLines: transcript.parsedLines,
    lastLine: { line: transcript.lines, eol: transcript.lastLine!.eol, parsed: true },
  };
  const findings = byLine.sort((a, b) => a[0] - b[0]).flatMap(([, found]) => found);
  return { output, findings, counts, lines: { dropped: [], moved: [], rewritten } };
}
