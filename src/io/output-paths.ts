import { fstatSync } from 'node:fs';
import { lstat, mkdir, realpath, stat } from './named-fs.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { reason, UserError } from '../errors.js';

/**
 * `--out`: a file for one input, a folder for several (same names relative to what they share).
 * For one input, a path ending in a slash or naming a folder is a folder too, as for `cp`: the
 * output takes the input's name in it.
 * Refused: an output that is one of the inputs (that is --in-place, with its lock, change check
 * and backup), a folder that holds inputs, and a symlink between the folder and an output, which
 * would send the write somewhere else. A symlink at an output itself is replaced, not followed.
 */
export async function outputPaths(output: string, sources: string[]): Promise<string[]> {
  const files = sources.filter((source) => source !== '-');
  if (sources.length === 1) {
    const target = (await namesFolder(output)) ? join(output, inputName(sources[0]!)) : output;
    await mkdir(dirname(resolve(target)), { recursive: true }).catch(() => undefined);
    await refuseInputs([target], files);
    return [target];
  }
  const root = resolve(output);
  await refuseHoldingInputs(output, root, files);
  const absolute = sources.map((source) => resolve(source));
  const base = commonFolder(absolute);
  const paths = absolute.map((source) => join(output, relative(base, source)));
  for (const path of paths) {
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      throw new UserError(`cannot create ${dirname(path)}: ${reason(error)}`);
    }
    await refuseLinksBelow(root, resolve(dirname(path)));
  }
  await refuseInputs(paths, files);
  return paths;
}

async function namesFolder(output: string): Promise<boolean> {
  if (output.endsWith('/') || output.endsWith(sep)) return true;
  return (await stat(output).catch(() => undefined))?.isDirectory() ?? false;
}

function inputName(source: string): string {
  if (source === '-') throw new UserError('--out names a folder, and standard input has no file name to give the output in it; name the output file');
  return basename(source);
}

async function refuseInputs(outputs: string[], inputs: string[]): Promise<void> {
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    const id = await fileId(input);
    if (id !== undefined) inputIds.set(id, input);
  }
  for (const output of outputs) {
    const input = inputIds.get((await fileId(output)) ?? '');
    if (input !== undefined) throw new UserError(`--out ${output} is the input ${input}; use --in-place to rewrite it (with its lock check and backup)`);
  }
}

async function refuseHoldingInputs(output: string, root: string, inputs: string[]): Promise<void> {
  const folder = await realpath(root).catch(() => undefined);
  if (folder === undefined) return;
  for (const input of inputs) {
    const real = await realpath(input).catch(() => resolve(input));
    const inside = relative(folder, real);
    if (inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) {
      throw new UserError(`--out ${output} holds the input ${input}; choose a folder outside the inputs, or use --in-place`);
    }
  }
}

/** Each folder from just below `root` down to `folder` must be a real folder, not a link out. */
async function refuseLinksBelow(root: string, folder: string): Promise<void> {
  const parts = relative(root, folder).split(sep).filter(Boolean);
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    if ((await lstat(path)).isSymbolicLink()) throw new UserError(`${path} is a symbolic link inside the -o folder; refusing to write through it`);
  }
}

/** A file a run will write: named by a flag and a path, or an open descriptor (standard output). */
export interface PlannedWrite {
  flag: string;
  path?: string;
  fd?: number;
  /** What goes there, when the flag does not say it (which reporter's report). */
  what?: string;
}

/**
 * Before any work: a report, baseline or transcript written over a file the run reads would
 * destroy it, whatever spelling, symlink or hard link leads there (and `>> input` too).
 */
export async function refuseWritesOverInputs(writes: readonly PlannedWrite[], inputs: readonly string[]): Promise<void> {
  if (writes.length === 0) return;
  await refuseSharedWrites(writes);
  const targets = await Promise.all(writes.map((write) => (write.fd !== undefined ? descriptorId(write.fd) : write.path !== undefined ? fileId(write.path) : undefined)));
  // A file not there yet is no input: the inputs (thousands, in a projects folder) are looked at only when a target exists.
  if (targets.every((id) => id === undefined)) return;
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    const id = input === '-' ? undefined : await fileId(input);
    if (id !== undefined && !inputIds.has(id)) inputIds.set(id, input);
  }
  for (const [k, write] of writes.entries()) {
    const id = targets[k];
    const input = id === undefined ? undefined : inputIds.get(id);
    if (input === undefined) continue;
    const named = write.path === undefined ? write.flag : `${write.flag} ${write.path}`;
    // The transcript's own output says how to do what was meant; a report over an input is only refused.
    const instead = write.flag === '--out' ? 'use --in-place to rewrite it (with its lock check and backup)' : 'refusing before anything is read or written';
    throw new UserError(`${named} is the input ${input}; ${instead}`);
  }
}

/**
 * Two things a run writes need two files: the second written over the first (a JUnit report over
 * the JSON one) would leave one of them lost without a word. Refused before any work.
 */
export async function refuseSharedWrites(writes: readonly PlannedWrite[]): Promise<void> {
  const seen = new Map<string, PlannedWrite>();
  for (const write of writes) {
    if (write.path === undefined) continue;
    const id = (await fileId(write.path)) ?? (await plannedName(write.path));
    const earlier = seen.get(id);
    if (earlier !== undefined) throw new UserError(`${named(earlier)} and ${named(write)} are the same file; give each its own`);
    seen.set(id, write);
  }
}

const named = (write: PlannedWrite) => `${write.flag} ${write.path}${write.what === undefined ? '' : ` (${write.what})`}`;

/** A file not there yet, named as it will be: its folder's real path and its own name. */
async function plannedName(path: string): Promise<string> {
  const absolute = resolve(path);
  return join(await realpath(dirname(absolute)).catch(() => dirname(absolute)), basename(absolute));
}

/** Device and inode: the same file whatever path, symlink or hard link names it. */
async function fileId(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

function descriptorId(fd: number): string | undefined {
  try {
    const info = fstatSync(fd);
    return info.isFile() ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function commonFolder(paths: string[]): string {
  const split = paths.map((path) => dirname(path).split(sep));
  const first = split[0]!;
  let shared = first.length;
  for (const parts of split) {
    let i = 0;
    while (i < shared && parts[i] === first[i]) i++;
    shared = i;
  }
  return first.slice(0, shared).join(sep) || sep;
}
