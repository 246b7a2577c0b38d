import type { Decoder } from '../formats/format.js';
import { readFileLines } from '../io/file-lines.js';

export interface ExistingLines {
  /** Lines already in the file, so appended lines are numbered after them. */
  count: number;
  /** The last line has no line ending: the first append must start a new line, or it would glue onto it. */
  unterminated: boolean;
}

/**
 * Reads what the session file already holds: its first line goes through `decoder`, which learns
 * from it what later lines mean (pi's header version: whether entries are linked by id); the rest
 * are only counted. A last line without its newline is kept as it is (it may be a record another
 * writer left whole, or a torn one `repair` can still read), never cut.
 */
export async function readExistingLines(path: string, decoder: Decoder): Promise<ExistingLines> {
  let count = 0;
  let unterminated = false;
  await readFileLines(path, (line) => {
    count = line.number;
    unterminated = line.eol === 'none';
    if (line.number !== 1 || line.oversized) return;
    try {
      decoder.decode(JSON.parse(line.bytes.toString('utf8')), 1, 0);
    } catch {
      // A first line that is not JSON teaches nothing; later lines are decoded as if it were absent.
    }
  });
  return { count, unterminated };
}
