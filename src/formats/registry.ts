import type { TranscriptFormat } from './format.js';
import { claudeCodeFormat } from './claude-code/index.js';
import { piFormat } from './pi/index.js';

/** Formats in detection order. Codex joins here as a sibling module. */
export const formats: readonly TranscriptFormat[] = [piFormat, claudeCodeFormat];

export function detectFormat(value: unknown): TranscriptFormat | undefined {
  return formats.find((format) => format.detect(value));
}
