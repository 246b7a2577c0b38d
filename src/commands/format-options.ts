import { UserError } from '../errors.js';
import { formats } from '../formats/registry.js';
import type { TranscriptFormat } from '../formats/format.js';
import { terminalText } from '../report/terminal-text.js';

/**
 * `-f/--format` and `--output-format` choose the report format, as ESLint's `-f` and Ruff's
 * `--output-format` do, beside `-r/--reporter`; `--agent` names the transcript format. A
 * transcript format given to `--format` (what the flag meant before) is still taken as `--agent`.
 */
export interface FormatOptions {
  reporter?: string[];
  format?: string[];
  outputFormat?: string[];
  agent?: string;
}

const isTranscriptFormat = (name: string) => formats.some((format) => format.name === name);

/** The reporters asked for, by any of the three flags, in the order given per flag. */
export function reportersOf(options: FormatOptions): string[] {
  return [...(options.reporter ?? []), ...[...(options.format ?? []), ...(options.outputFormat ?? [])].filter((name) => !isTranscriptFormat(name))];
}

/** The transcript format forced by `--agent` (or by the old `--format <transcript format>`, with a note), if any. */
export function agentOf(options: FormatOptions, warn: (message: string) => void = (message) => process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`)): TranscriptFormat | undefined {
  const old = (options.format ?? []).filter(isTranscriptFormat);
  for (const name of old) warn(`--format ${name} names a transcript format; use --agent ${name} (--format chooses the report format, as in ESLint)`);
  const names = [...new Set([...(options.agent === undefined ? [] : [options.agent]), ...old])];
  if (names.length > 1) throw new UserError(`one transcript format at a time: ${names.join(', ')}`);
  return names.length === 0 ? undefined : formats.find((format) => format.name === names[0]);
}
