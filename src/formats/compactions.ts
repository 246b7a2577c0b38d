import type { FormatCompaction } from './compaction.js';
import { piCompaction } from './pi/compaction.js';

/** Each format's compaction writer, by format name (see FormatCompaction). */
const WRITERS: Record<string, FormatCompaction> = { pi: piCompaction };

export function compactionOf(format: string | undefined): FormatCompaction | undefined {
  return format === undefined ? undefined : WRITERS[format];
}
