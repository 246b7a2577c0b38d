import { formats } from '../formats/registry.js';
import { readFileLines } from '../io/file-lines.js';
import type { Transcript } from '../model/transcript.js';
import { conversationChecker } from './conversation.js';
import { jobRules, type LineJob, type LineResults, type LineWork } from './line-work.js';
import { TranscriptBuilder, type BuilderStart, type DecoderEnd } from './load-transcript.js';
import type { RangeSteal } from './range-steal.js';
import { planConversations } from './rewrite-conversations.js';

/** What a thread needs to decode part of a file on its own. */
export interface RangeRequest {
  path: string;
  /** Byte offset of the first line of the range (just after a line ending). */
  start: number;
  /** Byte to stop before (just after a line ending); the end of the file when absent. */
  end?: number;
  format: string;
  state: unknown;
  /** About how many lines the whole file holds, and its size: a range sizes its columns once for its share. */
  lines: number;
  size: number;
  /** For a file of conversations: what to do with each line (see LineWork). */
  job?: LineJob;
}

/** The range's transcript, and what the job found in its lines. */
export interface RangeResult {
  transcript: Transcript;
  lines?: LineResults;
  /** Where its decoder got to: for the last range, the file's end (see decoderEnds). */
  end?: DecoderEnd;
}

/** A range decoded, with where its decoder got to: where the range after it should have started. */
interface Decoded extends RangeResult {
  start: number;
  reached: BuilderStart | undefined;
}

/**
 * Decodes the file from `start` to `end`, continuing from the given decoder state. Line
 * numbers and entry indices count from the start of the range; byte offsets are the file's.
 */
export async function loadRange(request: RangeRequest): Promise<Decoded> {
  const format = formats.find((candidate) => candidate.name === request.format)!;
  const work = request.job === undefined ? undefined : lineWork(request.job);
  const builder = new TranscriptBuilder(format, request.state, work?.take).expectLines((request.lines * ((request.end ?? request.size) - request.start)) / request.size);
  // Each line is a fresh object, handed to no one else: its offset is moved to the file's in place.
  const summary = await readFileLines(
    request.path,
    (raw) => {
      raw.offset += request.start;
      builder.line(raw);
    },
    // Without an end, on to the end of the file as it is then: lines appended meanwhile are read as one thread reads them.
    { start: request.start, end: request.end },
  );
  const transcript = builder.untrimmed({ ...summary, bom: false });
  const reached = builder.position;
  const decoded: Decoded = { transcript, start: request.start, reached };
  if (reached !== undefined) decoded.end = { format: reached.format.name, state: reached.state };
  if (work !== undefined) decoded.lines = work.results();
  return decoded;
}

/** A range decoded by the other thread, as it sends it: it replaces any range sent before that starts within it. */
export interface RangePart {
  start: number;
  end: number;
  result: RangeResult;
}

/** Adds a part as the main thread takes it: a range read again replaces those it covers (see loadRanges). */
export function takePart(parts: RangePart[], part: RangePart): void {
  for (let k = parts.length - 1; k >= 0; k--) if (parts[k]!.start >= part.start && parts[k]!.start < part.end) parts.splice(k, 1);
  parts.push(part);
}

/**
 * The other thread's task: its range, then what it takes from the end of the main thread's
 * range each time it runs out (see RangeSteal). Each range is sent once decoded, so that the
 * copy between threads is made while the main thread still reads.
 */
export async function loadRanges(request: RangeRequest, steal: Pick<RangeSteal, 'ask'>, send: (part: RangePart) => void): Promise<void> {
  const part = ({ transcript, lines, start, end: reached }: Decoded, end: number): RangePart => ({ start, end, result: { transcript, ...(lines === undefined ? {} : { lines }), ...(reached === undefined ? {} : { end: reached }) } });
  let next = await loadRange(request);
  // Sent once the next range is agreed on: the main thread copies it in while it reads, not while the request waits.
  let unsent = part(next, request.size);
  for (;;) {
    const at = await steal.ask();
    send(unsent);
    if (at === undefined) return;
    const taken = await loadRange({ ...request, start: at, end: next.start });
    unsent = part(taken, next.start);
    // The ranges after it guessed the state they start in; this one tells. Rarely wrong: then they are read again, as one.
    if (!startsAt(taken.reached, request)) {
      send(unsent);
      unsent = part(await loadRange({ ...request, start: next.start, format: taken.reached!.format.name, state: taken.reached!.state }), request.size);
    }
    next = taken;
  }
}

/** Whether a decoder that got to `reached` is where `request` starts from. */
export function startsAt(reached: BuilderStart | undefined, request: Pick<RangeRequest, 'format' | 'state'>): boolean {
  return reached !== undefined && reached.format.name === request.format && JSON.stringify(reached.state) === JSON.stringify(request.state);
}

function lineWork(job: LineJob): LineWork {
  const rules = jobRules(job);
  return job.repair === undefined ? conversationChecker(rules, job.provider) : planConversations(job.repair, rules);
}
