import type { FormatCompaction } from './compaction.js';
import { claudeCodeCompaction } from './claude-code/compaction.js';
import { codexCompaction } from './codex/compaction.js';
import { copilotCliCompaction } from './copilot-cli/compaction.js';
import { geminiCliCompaction } from './gemini-cli/compaction.js';
import { piCompaction } from './pi/compaction.js';
import { qwenCodeCompaction } from './qwen-code/compaction.js';

/** Each format's compaction writer, by format name (see FormatCompaction). */
const WRITERS: Record<string, FormatCompaction> = { pi: piCompaction, 'claude-code': claudeCodeCompaction, codex: codexCompaction, 'qwen-code': qwenCodeCompaction, 'gemini-cli': geminiCliCompaction, 'copilot-cli': copilotCliCompaction };

export function compactionOf(format: string | undefined): FormatCompaction | undefined {
  return format === undefined ? undefined : WRITERS[format];
}
