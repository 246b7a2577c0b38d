import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { reason, UserError } from '../errors.js';

/** `-o`: a file for one input, a folder for several (same names relative to what they share). */
export async function outputPaths(output: string, sources: string[]): Promise<string[]> {
  if (sources.length === 1) {
    await mkdir(dirname(resolve(output)), { recursive: true }).catch(() => undefined);
    return [output];
  }
  const absolute = sources.map((source) => resolve(source));
  const base = commonFolder(absolute);
  const paths = absolute.map((source) => join(output, relative(base, source)));
  for (const path of paths) {
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      throw new UserError(`cannot create ${dirname(path)}: ${reason(error)}`);
    }
  }
  return paths;
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
