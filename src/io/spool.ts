import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { removeOnExit } from './exit-cleanup.js';
import { isAlive } from './process-alive.js';

/** Whose spool it is, so a later run can tell it is stale. */
const SPOOL_NAME = /^transcript-doctor-(\d+)-[0-9a-f]{12}$/;

/**
 * Standard input written to a temp file for the length of `use`, for work that reads its input
 * twice. The folder goes on every way out: return, throw, exit, SIGINT/SIGTERM/SIGHUP. A killed
 * run's folder is removed by the next run that spools.
 */
export async function spoolStdin<T>(stdin: Readable, use: (path: string) => Promise<T>): Promise<T> {
  const folder = await tempFolder();
  try {
    const spool = join(folder.path, 'stdin.jsonl');
    await pipeline(stdin, createWriteStream(spool));
    return await use(spool);
  } finally {
    await folder.remove();
  }
}

/** A private folder in the temp directory, named for this process, removed by `remove` or on any way out. */
export async function tempFolder(): Promise<{ path: string; remove: () => Promise<void> }> {
  await sweepStaleSpools();
  const path = join(tmpdir(), `transcript-doctor-${process.pid}-${randomBytes(6).toString('hex')}`);
  // Registered before it exists: a signal a moment after mkdir must not leave it behind.
  const forget = removeOnExit(path);
  await mkdir(path, { mode: 0o700 }).catch((error: unknown) => {
    forget();
    throw error;
  });
  return {
    path,
    remove: async () => {
      await rm(path, { recursive: true, force: true });
      forget();
    },
  };
}

async function sweepStaleSpools(): Promise<void> {
  const folder = tmpdir();
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(SPOOL_NAME.exec(name)?.[1]);
      if (!Number.isSafeInteger(pid) || pid === process.pid || isAlive(pid)) return;
      await rm(join(folder, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}
