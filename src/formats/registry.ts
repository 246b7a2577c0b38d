import type { TranscriptFormat } from './format.js';
import { claudeCodeFormat } from './claude-code/index.js';
import { codexFormat } from './codex/index.js';
import { copilotCliFormat } from './copilot-cli/index.js';
import { geminiCliFormat } from './gemini-cli/index.js';
import { piFormat } from './pi/index.js';
import { qwenCodeFormat } from './qwen-code/index.js';
import { requestsFormat } from './requests/index.js';

/**
 * Formats in detection order; each recognises only line shapes the others never write. Requests
 * come last: a session line never holds a whole request, and that test reads more of the line.
 */
const table: TranscriptFormat[] = [piFormat, claudeCodeFormat, qwenCodeFormat, codexFormat, geminiCliFormat, copilotCliFormat, requestsFormat];
export const formats: readonly TranscriptFormat[] = table;

/**
 * Adds a format to the table, before the request formats (a session line never holds a whole
 * request): how a program that embeds this package, or a test, brings the format of an agent of
 * its own (see agents/index.ts registerAgent). It is read in this thread only: a file it reads
 * is loaded here, not by the worker threads. Returns what takes it out again.
 */
export function registerFormat(format: TranscriptFormat): () => void {
  if (table.some((known) => known.name === format.name)) throw new Error(`a format named ${format.name} is already registered`);
  table.splice(table.indexOf(requestsFormat), 0, format);
  return () => {
    const at = table.indexOf(format);
    if (at !== -1) table.splice(at, 1);
  };
}

export function detectFormat(value: unknown): TranscriptFormat | undefined {
  return formats.find((format) => format.detect(value));
}

/** A value some format takes for one of its lines: the test for damaged lines before a file's format is known. */
export function isAnyRecord(value: unknown): boolean {
  return formats.some((format) => format.isRecord(value));
}

/**
 * The format of a file in which no line is unmistakable (see TranscriptFormat.resembles): the
 * one whose agent keeps its files where this one lives, else the one a parsed line resembles,
 * when only one does. Undefined when neither tells.
 */
export function likelyFormat(values: readonly unknown[], path: string | undefined): TranscriptFormat | undefined {
  if (path !== undefined) {
    const slashed = path.replaceAll('\\', '/');
    const home = formats.find((format) => format.livesAt?.some((pattern) => pattern.test(slashed)));
    if (home !== undefined) return home;
  }
  const alike = formats.filter((format) => format.resembles !== undefined && values.some((value) => format.resembles!(value)));
  return alike.length === 1 ? alike[0] : undefined;
}

/** The format that keeps the file at `path` as one JSON document (see TranscriptFormat.readsWholeDocument); `format` when one is named. */
export function documentFormat(path: string, format?: TranscriptFormat): TranscriptFormat | undefined {
  const slashed = path.replaceAll('\\', '/');
  return (format === undefined ? formats : [format]).find((candidate) => candidate.readsWholeDocument?.(slashed) === true);
}
