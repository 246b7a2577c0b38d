import { randomBytes } from 'node:crypto';
import { readdir, rm } from './named-fs.js';
import { basename, dirname, join } from 'node:path';
import { isAlive } from './process-alive.js';

/** What a temp file is for: the new content, or a second name for the original while it is replaced. */
export type TempKind = 'tmp' | 'hold';

/**
 * A hidden name beside `destination` that says whose it is: this program and this process.
 * (`td-` is what earlier versions wrote.)
 */
const TEMP_NAME = /^\..*\.(?:transcript-doctor|td)-(\d+)-[0-9a-f]+\.(?:tmp|hold)$/;

/** Long session names are cut so the temp name stays under the usual 255-byte limit. */
const MAX_STEM = 180;

export function tempPathFor(destination: string, kind: TempKind): string {
  const stem = basename(destination).slice(0, MAX_STEM);
  return join(dirname(destination), `.${stem}.transcript-doctor-${process.pid}-${randomBytes(6).toString('hex')}.${kind}`);
}

const swept = new Set<string>();

/**
 * Removes the temp files a killed run left in `folder` (once per folder per process). A temp
 * whose process is alive is another run at work and is left alone.
 */
export async function sweepStaleTemps(folder: string): Promise<void> {
  if (swept.has(folder)) return;
  swept.add(folder);
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(TEMP_NAME.exec(name)?.[1]);
      if (!Number.isSafeInteger(pid) || pid === process.pid || isAlive(pid)) return;
      await rm(join(folder, name), { force: true }).catch(() => undefined);
    }),
  );
}

/**
 * Removes this process's own temp files beside `destination`: a worker thread stopped mid-write
 * (see run/guard-repair.ts) cannot remove them itself. Never called while a commit holds one.
 */
export async function removeOwnTemps(destination: string): Promise<void> {
  const folder = dirname(destination);
  const stem = `.${basename(destination).slice(0, MAX_STEM)}.transcript-doctor-${process.pid}-`;
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(stem) && TEMP_NAME.test(name)).map((name) => rm(join(folder, name), { force: true }).catch(() => undefined)));
}
