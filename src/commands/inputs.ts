import { UserError } from '../errors.js';
import { expandInputs, type Input } from '../io/inputs.js';
import { readPathList } from '../io/path-list.js';
import { inShard, type Shard } from '../run/shard.js';

/** The options that say which transcripts a command reads, beside its path arguments. */
export interface InputListOptions {
  filesFrom?: string;
  /** -0: NUL-separated lists. */
  null?: boolean;
  /** scan -l: -0 also applies to the list written. */
  filesWithErrors?: boolean;
  /** Folders given are searched into every hidden folder, not only the agents' own. */
  hidden?: boolean;
}

/** Usage mistakes in the list options, found before any work. */
export function checkListOptions(paths: readonly string[], options: InputListOptions): void {
  if (options.null && options.filesFrom === undefined && !options.filesWithErrors) {
    throw new UserError('-0 goes with --files-from (a NUL-separated list in) or, for scan, -l (a NUL-separated list out)');
  }
  if (options.filesFrom === '-' && paths.includes('-')) throw new UserError('--files-from - reads the list from standard input, so - cannot also be a transcript');
}

/**
 * The paths given plus those of --files-from, expanded. `undefined` when nothing at all was
 * named (scan then reads the session folders); a --files-from list that is empty names nothing
 * and stays empty, so `find … | transcript-doctor scan --files-from -` finding nothing scans nothing.
 */
export async function namedInputs(paths: readonly string[], options: InputListOptions, ignores: readonly string[], onMissing?: (path: string) => void): Promise<Input[] | undefined> {
  checkListOptions(paths, options);
  const listed = options.filesFrom === undefined ? [] : await readPathList(options.filesFrom, options.null ?? false, process.stdin);
  if (options.filesFrom === undefined && paths.length === 0) return undefined;
  const all = [...paths, ...listed];
  return all.length === 0 ? [] : expandInputs(all, ignores, undefined, onMissing, { hidden: options.hidden });
}

/** This shard's part of the inputs; standard input has no path to hash, so it cannot be sharded. */
export function shardInputs(inputs: Input[], shard: Shard | undefined): Input[] {
  if (shard === undefined) return inputs;
  if (inputs.some((input) => input.kind === 'stdin')) throw new UserError('--shard splits files; standard input (-) cannot be sharded');
  return inShard(inputs, shard);
}
