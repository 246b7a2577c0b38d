import type { TranscriptFormat } from './format.js';
import { claudeCodeFormat } from './claude-code/index.js';
import { codexFormat } from './codex/index.js';
import { piFormat } from './pi/index.js';

/** Formats in detection order; each recognises only line shapes the others never write. */
export const formats: readonly TranscriptFormat[] = [piFormat, claudeCodeFormat, codexFormat];

export function detectFormat(value: unknown): TranscriptFormat | undefined {
  return formats.find((format) => format.detect(value));
}
