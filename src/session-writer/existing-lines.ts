import type { Decoder, TranscriptFormat } from '../formats/format.js';
import { readFileLines } from '../io/file-lines.js';
import { open } from '../io/named-fs.js';

export interface ExistingLines {
  /** Lines already in the file, so appended lines are numbered after them. */
  count: number;
  /** The last line has no line ending: the first append must start a new line, or it would glue onto it. */
  unterminated: boolean;
  /** The number the last line carries, in a file whose lines are numbered (Codex's paginated rollouts). */
  lastSequence: number | undefined;
}

/**
 * Reads what the session file already holds: its first line goes through `decoder`, which learns
 * from it what later lines mean (pi's header version: whether entries are linked by id), and its
 * last line tells the number the next line must carry; the rest are only counted. A last line
 * without its newline is kept as it is (a record another writer left whole, or a torn one
 * `repair` can still read), never cut.
 */
export async function readExistingLines(path: string, decoder: Decoder, format: TranscriptFormat): Promise<ExistingLines> {
  let count = 0;
  let unterminated = false;
  let last = { offset: 0, length: 0 };
  await readFileLines(path, (line) => {
    count = line.number;
    unterminated = line.eol === 'none';
    last = { offset: line.offset, length: line.oversized ? 0 : line.byteLength };
    if (line.number !== 1 || line.oversized) return;
    const value = parsed(line.bytes);
    if (value !== undefined) decoder.decode(value, 1, 0);
  });
  let lastSequence: number | undefined;
  if (last.length > 0) {
    const value = parsed(await readRange(path, last.offset, last.length));
    // A decoder of its own: the writer's must not take the last line for the next one.
    if (value !== undefined) lastSequence = format.createDecoder().decode(value, count, count - 1).sequence;
  }
  return { count, unterminated, lastSequence };
}

function parsed(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    // A line that is not JSON teaches nothing.
    return undefined;
  }
}

async function readRange(path: string, offset: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
