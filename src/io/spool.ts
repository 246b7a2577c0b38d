import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Standard input written to a temp file for the length of `use`, for work that reads its input twice. */
export async function spoolStdin<T>(stdin: Readable, use: (path: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'transcript-doctor-'));
  try {
    const spool = join(folder, 'stdin.jsonl');
    await pipeline(stdin, createWriteStream(spool));
    return await use(spool);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
