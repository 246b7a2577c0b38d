import { createHash } from 'node:crypto';
import { realpathSync } from '../io/named-fs.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../errors.js';

export interface Shard {
  /** 1-based, as written: 1/3, 2/3, 3/3. */
  index: number;
  total: number;
}

/** `--shard i/n`, 1 ≤ i ≤ n. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(index) || !Number.isSafeInteger(total) || total < 1 || index < 1 || index > total) {
    throw new UserError(`--shard must be i/n with 1 ≤ i ≤ n (e.g. 2/4), not "${text}"`);
  }
  return { index, total };
}

/**
 * The string a path is hashed by: relative to the working directory, `/`-separated, without
 * `./` or `..` detours, so `./a.jsonl`, `a.jsonl`, `sub/../a.jsonl` and `$PWD/a.jsonl` (even
 * through a symlinked `$PWD`) land in the same shard on every machine that checks out the same
 * tree. Folders are resolved through symlinks, the file name is kept as written. A path outside
 * the working directory is hashed by its absolute form.
 */
export function shardKey(path: string, cwd = process.cwd(), real: (folder: string) => string = physical): string {
  const absolute = resolve(cwd, path);
  const inside = relative(real(cwd), join(real(dirname(absolute)), basename(absolute)));
  const outside = inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return (outside ? absolute : inside).split(sep).join('/');
}

/** A folder's real path; as given when it cannot be resolved (the hash must not fail on it). */
function physical(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/** Which shard (1-based) a path belongs to out of `total`: a stable hash, whatever else is listed. */
export function shardOf(path: string, total: number, cwd?: string, real?: (folder: string) => string): number {
  const digest = createHash('sha256').update(shardKey(path, cwd, real)).digest();
  // 48 bits of the hash, so the modulo is even enough for any shard count people use.
  return (digest.readUIntBE(0, 6) % total) + 1;
}

/** The items of this shard, in their order. */
export function inShard<T extends { path: string }>(items: readonly T[], shard: Shard, cwd?: string): T[] {
  // Files share folders: each folder is resolved once.
  const folders = new Map<string, string>();
  const real = (folder: string) => folders.get(folder) ?? folders.set(folder, physical(folder)).get(folder)!;
  return items.filter((item) => shardOf(item.path, shard.total, cwd, real) === shard.index);
}
