import { formats } from '../formats/registry.js';
import { readFileLines } from '../io/file-lines.js';
import type { Transcript } from '../model/transcript.js';
import { TranscriptBuilder } from './load-transcript.js';

/** What a thread needs to decode the second half of a file on its own. */
export interface RangeRequest {
  path: string;
  /** Byte offset of the first line of the range (just after a line ending). */
  start: number;
  format: string;
  state: unknown;
}

/**
 * Decodes the file from `start` to its end, continuing from the given decoder state. Line
 * numbers and entry indices count from the start of the range; byte offsets are the file's.
 */
export async function loadRange(request: RangeRequest): Promise<Transcript> {
  const format = formats.find((candidate) => candidate.name === request.format)!;
  const builder = new TranscriptBuilder(format, request.state);
  const summary = await readFileLines(request.path, (raw) => builder.line({ ...raw, offset: raw.offset + request.start }), { start: request.start });
  return builder.untrimmed({ ...summary, bom: false });
}
