import type { TranscriptFormat } from './format.js';
import { piFormat } from './pi/index.js';

/** Formats in detection order. Claude Code and Codex join here as sibling modules. */
export const formats: readonly TranscriptFormat[] = [piFormat];

export function detectFormat(value: unknown): TranscriptFormat | undefined {
  return formats.find((format) => format.detect(value));
}
