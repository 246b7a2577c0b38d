import type { FormatCompaction } from './compaction.js';
import { claudeCodeCompaction } from './claude-code/compaction.js';
import { codexCompaction } from './codex/compaction.js';
import { piCompaction } from './pi/compaction.js';

/** Each format's compaction writer, by format name (see FormatCompaction). */
const WRITERS: Record<string, FormatCompaction> = { pi: piCompaction, 'claude-code': claudeCodeCompaction, codex: codexCompaction };

export function compactionOf(format: string | undefined): FormatCompaction | undefined {
  return format === undefined ? undefined : WRITERS[format];
}
