import type { EntryStore } from './entry-store.js';

/** The first line where a numbered file's count breaks; the agent stops reading there. */
export interface SequenceBreak {
  /** Entry index of the line. */
  index: number;
  /** The number the line should carry: one more than the line before it. */
  expected: number;
  /** The number it carries; undefined when it carries none. */
  got?: number;
  /** Lines after it that need another number too, once the count goes on from it. */
  later: number;
}

/**
 * Numbered files (Codex's paginated rollouts) count their lines: from the first numbered line
 * on, each line carries the number after the previous one's, with no repeat and no gap. Lines
 * before the first numbered one (written before the agent numbered its lines) need none.
 * A file without numbers has no column of them, and costs nothing here.
 */
export function firstSequenceBreak(entries: EntryStore): SequenceBreak | undefined {
  if (!entries.numbered) return undefined;
  let first = 0;
  while (first < entries.length && entries.sequence(first) === undefined) first += 1;
  if (first === entries.length) return undefined;
  let previous = entries.sequence(first)!;
  let found: SequenceBreak | undefined;
  for (let i = first + 1; i < entries.length; i++) {
    const number = entries.sequence(i);
    if (found !== undefined) {
      if (number !== found.expected + (i - found.index)) found.later += 1;
    } else if (number !== previous + 1) {
      found = { index: i, expected: previous + 1, got: number, later: 0 };
    }
    previous = number ?? previous + 1;
  }
  return found;
}
