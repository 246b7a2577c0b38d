import { formats } from '../formats/registry.js';
import { readFileLines } from '../io/file-lines.js';
import type { Transcript } from '../model/transcript.js';
import { conversationChecker } from './conversation.js';
import { jobRules, type LineJob, type LineResults, type LineWork } from './line-work.js';
import { TranscriptBuilder } from './load-transcript.js';
import { planConversations } from './rewrite-conversations.js';

/** What a thread needs to decode the second half of a file on its own. */
export interface RangeRequest {
  path: string;
  /** Byte offset of the first line of the range (just after a line ending). */
  start: number;
  format: string;
  state: unknown;
  /** For a file of conversations: what to do with each line (see LineWork). */
  job?: LineJob;
}

/** The range's transcript, and what the job found in its lines. */
export interface RangeResult {
  transcript: Transcript;
  lines?: LineResults;
}

/**
 * Decodes the file from `start` to its end, continuing from the given decoder state. Line
 * numbers and entry indices count from the start of the range; byte offsets are the file's.
 */
export async function loadRange(request: RangeRequest): Promise<RangeResult> {
  const format = formats.find((candidate) => candidate.name === request.format)!;
  const work = request.job === undefined ? undefined : lineWork(request.job);
  const builder = new TranscriptBuilder(format, request.state, work?.take);
  const summary = await readFileLines(request.path, (raw) => builder.line({ ...raw, offset: raw.offset + request.start }), { start: request.start });
  const transcript = builder.untrimmed({ ...summary, bom: false });
  return work === undefined ? { transcript } : { transcript, lines: work.results() };
}

function lineWork(job: LineJob): LineWork {
  const rules = jobRules(job);
  return job.repair === undefined ? conversationChecker(rules, job.provider) : planConversations(job.repair, rules);
}
