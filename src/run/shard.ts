import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
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
 * `./` or `..` detours, so `./a.jsonl`, `a.jsonl` and `sub/../a.jsonl` land in the same shard
 * on every machine that checks out the same tree. A path outside the working directory is hashed
 * by its absolute form.
 */
export function shardKey(path: string, cwd = process.cwd()): string {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  const outside = inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  const key = outside ? absolute : inside;
  return key.split(sep).join('/');
}

/** Which shard (1-based) a path belongs to out of `total`: a stable hash, whatever else is listed. */
export function shardOf(path: string, total: number, cwd?: string): number {
  const digest = createHash('sha256').update(shardKey(path, cwd)).digest();
  // 48 bits of the hash, so the modulo is even enough for any shard count people use.
  return (digest.readUIntBE(0, 6) % total) + 1;
}

/** The items of this shard, in their order. */
export function inShard<T extends { path: string }>(items: readonly T[], shard: Shard, cwd?: string): T[] {
  return items.filter((item) => shardOf(item.path, shard.total, cwd) === shard.index);
}
