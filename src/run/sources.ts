import { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { expandInputs, type Input } from '../io/inputs.js';

/** One transcript to read: a file, or a stream read once (standard input, or a caller's stream). */
export type Source = { kind: 'file'; path: string } | { kind: 'stream'; path: '-'; stream: Readable };

/** A line of an iterable input: text or bytes, with or without its line ending. */
export type Line = string | Uint8Array;

/**
 * What the library accepts: paths (files, folders, globs, `-`, as on the command line), a
 * `Readable` of JSONL bytes, or an async iterable of lines.
 */
export type TranscriptInput = string | readonly string[] | Readable | AsyncIterable<Line> | Iterable<Line>;

/** The command line's inputs, with `-` read from `stdin`. */
export function sourcesOf(inputs: readonly Input[], stdin: Readable): Source[] {
  return inputs.map((input) => (input.kind === 'file' ? input : { kind: 'stream', path: '-', stream: stdin }));
}

/** The library's input as sources; paths are expanded as the command line expands them. */
export async function resolveSources(input: TranscriptInput, ignores: readonly string[], warn?: (message: string) => void): Promise<Source[]> {
  if (typeof input === 'string') return sourcesOf(await expandInputs([input], ignores, warn), process.stdin);
  if (input instanceof Readable) return [{ kind: 'stream', path: '-', stream: input }];
  if (Array.isArray(input)) {
    if (input.length === 0 || !input.every((path) => typeof path === 'string')) throw new UserError('an array input must hold one or more paths');
    return sourcesOf(await expandInputs(input as string[], ignores, warn), process.stdin);
  }
  if (input !== null && typeof input === 'object' && (Symbol.asyncIterator in input || Symbol.iterator in input)) {
    return [{ kind: 'stream', path: '-', stream: Readable.from(withEndings(input as AsyncIterable<Line>)) }];
  }
  throw new UserError('input must be a path, an array of paths, a Readable or an iterable of lines');
}

/** Each line ends with its own line ending, or gets `\n`: a line is never glued to the next. */
async function* withEndings(lines: AsyncIterable<Line> | Iterable<Line>): AsyncGenerator<Buffer> {
  const newline = Buffer.from('\n');
  for await (const line of lines) {
    if (typeof line !== 'string' && !(line instanceof Uint8Array)) throw new UserError('each line of an iterable input must be a string or bytes');
    const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : Buffer.from(line);
    yield bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, newline]);
  }
}
