import type { TranscriptFormat } from './format.js';
import { claudeCodeFormat } from './claude-code/index.js';
import { codexFormat } from './codex/index.js';
import { piFormat } from './pi/index.js';
import { requestsFormat } from './requests/index.js';

/**
 * Formats in detection order; each recognises only line shapes the others never write. Requests
 * come last: a session line never holds a whole request, and that test reads more of the line.
 */
export const formats: readonly TranscriptFormat[] = [piFormat, claudeCodeFormat, codexFormat, requestsFormat];

export function detectFormat(value: unknown): TranscriptFormat | undefined {
  return formats.find((format) => format.detect(value));
}

/** A value some format takes for one of its lines: the test for damaged lines before a file's format is known. */
export function isAnyRecord(value: unknown): boolean {
  return formats.some((format) => format.isRecord(value));
}
