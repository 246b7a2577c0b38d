import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;
/** Reads in flight: enough to keep the disk and the thread pool busy while this thread searches. */
const IN_FLIGHT = 8;

export interface IdHit {
  file: string;
  /** The ids found in the file, in the order asked. */
  ids: string[];
}

/**
 * The files that hold any of the ids, found by searching raw bytes, with no parsing: a folder of
 * thousands of sessions takes the time of reading it. An id is looked for as written and as JSON
 * escapes it. Hits keep the order of `files`; unreadable files are skipped (scan reports them).
 */
export async function filesWithIds(files: readonly string[], ids: readonly string[]): Promise<IdHit[]> {
  const needles = ids.map((id) => [...new Set([id, JSON.stringify(id).slice(1, -1)])].map((form) => Buffer.from(form, 'utf8')));
  const overlap = Math.max(0, ...needles.flat().map((needle) => needle.length - 1));
  const found: (string[] | undefined)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    const buffer = Buffer.allocUnsafe(CHUNK + overlap);
    for (let at = next++; at < files.length; at = next++) {
      found[at] = await searchFile(files[at]!, needles, ids, buffer, overlap).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, files.length) }, worker));
  const hits: IdHit[] = [];
  files.forEach((file, at) => {
    if (found[at] !== undefined && found[at]!.length > 0) hits.push({ file, ids: found[at]! });
  });
  return hits;
}

async function searchFile(file: string, needles: Buffer[][], ids: readonly string[], buffer: Buffer, overlap: number): Promise<string[]> {
  const handle = await open(file, 'r');
  const seen = new Array<boolean>(ids.length).fill(false);
  try {
    // The last `overlap` bytes of a chunk are kept at the front of the next, so an id split across two reads is found.
    let kept = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, kept, buffer.length - kept, null);
      const end = kept + bytesRead;
      const view = buffer.subarray(0, end);
      needles.forEach((forms, k) => {
        if (!seen[k] && forms.some((needle) => view.indexOf(needle) >= 0)) seen[k] = true;
      });
      if (bytesRead === 0 || seen.every(Boolean)) break;
      kept = Math.min(overlap, end);
      buffer.copy(buffer, 0, end - kept, end);
    }
  } finally {
    await handle.close();
  }
  return ids.filter((_, k) => seen[k]);
}
