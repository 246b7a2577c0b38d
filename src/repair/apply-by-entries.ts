import { splicedCopy, type Splice } from '../io/spliced-copy.js';
import type { LineEnding } from '../io/line-reader.js';
import type { Transcript } from '../model/transcript.js';
import type { OutputLines, Source, Write } from './output-lines.js';
import type { RepairPlan } from './plan.js';

const ENDING_OF_GAP: readonly LineEnding[] = ['none', 'lf', 'crlf'];

/**
 * The line ending of every line (0 none, 1 LF, 2 CRLF) when the file is nothing but lines of one
 * entry each, entry i on line i + 1, so the entries' places say where every line and its ending
 * are; undefined for any other file (blank, broken, glued or split lines, a byte order mark).
 */
export function linesByEntries(transcript: Transcript, plan: RepairPlan): Uint8Array | undefined {
  const { entries, lines } = transcript;
  if (transcript.bom || transcript.lineIssues.length > 0 || plan.split.size > 0 || lines === 0 || entries.length !== lines) return undefined;
  const gaps = new Uint8Array(lines);
  let at = 0;
  for (let i = 0; i < lines; i++) {
    if (entries.line(i) !== i + 1 || entries.offset(i) !== at) return undefined;
    const end = at + entries.byteLength[i]!;
    at = i + 1 < lines ? entries.offset(i + 1) : transcript.bytes;
    const gap = at - end;
    // Between two lines only their ending (a blank line would be a line of its own); the last may have none.
    if (gap > 2 || gap < (i + 1 < lines ? 1 : 0)) return undefined;
    gaps[i] = gap;
  }
  return ENDING_OF_GAP[gaps[lines - 1]!] === transcript.lastLine?.eol ? gaps : undefined;
}

/**
 * A pass over a file of one entry per line (see linesByEntries), without reading its lines again:
 * the runs of lines the plan leaves alone are modelled from their entries a run at a time and
 * copied with the rest of the bytes; only the lines it drops, edits or puts something after
 * (and headers, decoded again) are read, each by its place, and become splices of the copy.
 * Without `write` nothing is read but those.
 */
export async function applyByEntries(source: Source, lines: OutputLines, gaps: Uint8Array, write: Write | undefined): Promise<void> {
  const { transcript, path } = source;
  const { entries } = transcript;
  const last = transcript.lines;
  const read = linesToRead(lines, last, gaps);
  lines.placeAfter(0);
  const first = lines.take();
  // What the copy has not been given yet (see Splices): it lets each go once written.
  let splices: Splice[] = first.length > 0 ? [{ start: 0, end: 0, bytes: Buffer.concat(first) }] : [];
  // Entry index of the next line; place in `read` of the next line to read.
  let i = 0;
  let r = 0;
  // Every line up to the first to read at `end` or after, its splices: called by the copy for its next chunk while it reads and writes this one.
  const upTo = (end: number): readonly Splice[] => {
    while (i < last) {
      const next = r < read.length ? read[r]! - 1 : last;
      if (i < next) {
        lines.copied(i + 1, next - i, (next < last ? entries.offset(next) : transcript.bytes) - entries.offset(i), ENDING_OF_GAP[gaps[next - 1]!]!);
        i = next;
        continue;
      }
      const start = entries.offset(i);
      if (start >= end) break;
      // Read into a reused buffer: what the line becomes is copied into its splice below, before the next is read.
      const bytes = lines.lineAt(i + 1, true);
      lines.line(i + 1, bytes, ENDING_OF_GAP[gaps[i]!]!);
      const pieces = lines.take();
      // Kept as it was (a header read only to be decoded): the copy has it already.
      if (!(pieces.length === 2 && pieces[0] === bytes && pieces[1]!.length === gaps[i])) splices.push({ start, end: start + bytes.length + gaps[i]!, bytes: Buffer.concat(pieces) });
      i += 1;
      r += 1;
    }
    const given = splices;
    splices = [];
    return given;
  };
  if (write === undefined) upTo(Number.POSITIVE_INFINITY);
  // Chunks of 1 MiB: two such buffers stay in the processor's cache between the read and the write (4 MiB ones cost a third more system time).
  else await splicedCopy(path, transcript.bytes, upTo, write, 1 << 20);
}

/**
 * The lines that must be read, in order: those the plan drops, edits or puts something after,
 * those whose entries need their bytes (see OutputLines.needsBytes), and a last line without an ending.
 */
function linesToRead(lines: OutputLines, last: number, gaps: Uint8Array): number[] {
  const { plan } = lines;
  const read = new Set<number>([...plan.skip, ...plan.edits.keys(), ...plan.after.keys()]);
  for (let i = 0; i < last; i++) if (lines.needsBytes(i)) read.add(i + 1);
  if (gaps[last - 1] === 0) read.add(last);
  return [...read].filter((line) => line >= 1 && line <= last).sort((a, b) => a - b);
}
