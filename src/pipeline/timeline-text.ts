import { open } from '../io/named-fs.js';
import type { TranscriptFormat } from '../formats/format.js';
import { formats } from '../formats/registry.js';
import { READ_NOW } from '../io/regular-file.js';
import { recordText } from '../io/split-records.js';
import type { Analysis } from '../model/analysis.js';
import { maskForJudge } from '../verify/llm/mask-for-judge.js';
import { maskSecrets } from '../verify/llm/secrets.js';
import type { Finding } from './finding.js';
import type { Timeline } from './timeline.js';
import { planTimeline, type TurnRead } from './timeline-plan.js';

/** Bytes read back per turn at most: a longer line (a huge tool output) is described, not parsed. */
export const MAX_TURN_BYTES = 256 * 1024;
/** Characters of a turn's text looked at for secrets; the part kept lies well inside it, so a cut never halves a secret the check saw whole. */
const MASK_WINDOW = 4000;
/** Characters of a turn's text kept for the page. */
export const TEXT_CHARS = 1200;

/**
 * The timeline of a scanned file, with the words of the turns it shows read back from the file
 * by byte range (the model keeps none) and masked for secrets. `path` undefined: the input was
 * a stream that cannot be read again, so turns come without words.
 */
export async function gatherTimeline(analysis: Analysis, findings: readonly Finding[], path: string | undefined): Promise<Timeline> {
  const { timeline, reads } = planTimeline(
    analysis,
    findings.map((finding) => finding.line),
    analysis.transcript.lineIssues,
  );
  for (const { turn } of reads) {
    for (const call of turn.calls ?? []) if (call.name !== undefined) call.name = maskSecrets(call.name).text;
  }
  const format = formats.find((candidate) => candidate.name === analysis.transcript.format);
  if (path === undefined) timeline.textNote = 'standard input is read once, so turns show no text';
  else if (format === undefined) timeline.textNote = 'no known format, so turns show no text';
  else await fillTexts(path, format, reads);
  return timeline;
}

async function fillTexts(path: string, format: TranscriptFormat, reads: readonly TurnRead[]): Promise<void> {
  const raw: Array<{ read: TurnRead; text: string }> = [];
  const file = await open(path, READ_NOW);
  try {
    const buffer = Buffer.allocUnsafe(Math.min(MAX_TURN_BYTES, Math.max(0, ...reads.map((read) => read.length))));
    for (const read of [...reads].sort((a, b) => a.offset - b.offset)) {
      if (read.length > MAX_TURN_BYTES) {
        read.turn.note = `line of ${read.length.toLocaleString('en-US')} bytes: longer than the ${MAX_TURN_BYTES / 1024} KiB read back for a preview`;
        continue;
      }
      const { bytesRead } = await file.read(buffer, 0, read.length, read.offset);
      const text = lineText(format, recordText(buffer.subarray(0, bytesRead)));
      if (text === undefined) read.turn.note = 'the line no longer parses: the file changed after it was scanned';
      else if (text !== '') raw.push({ read, text });
    }
  } finally {
    await file.close();
  }
  let masked: string[];
  try {
    masked = await maskForJudge(raw.map(({ text }) => text.slice(0, MASK_WINDOW)));
  } catch {
    // Fails closed: without a working secret check no words are shown.
    for (const { read } of raw) read.turn.note = 'text withheld: the secret check failed';
    return;
  }
  raw.forEach(({ read, text }, i) => {
    const whole = masked[i]!;
    read.turn.text = whole.slice(0, TEXT_CHARS);
    if (whole.length > TEXT_CHARS || text.length > MASK_WINDOW) read.turn.textChars = text.length;
  });
}

function lineText(format: TranscriptFormat, line: string): string | undefined {
  try {
    return format.readText(JSON.parse(line)).text;
  } catch {
    return undefined;
  }
}
