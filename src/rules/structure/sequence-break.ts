import type { SequenceBreak } from '../../model/sequence.js';

/** How many lines after the first break need another number too, as a clause; empty when none. */
export function laterLines(found: SequenceBreak): string {
  if (found.later === 0) return '';
  return found.later === 1 ? '; 1 line after it needs another number too' : `; ${found.later} lines after it need another number too`;
}
