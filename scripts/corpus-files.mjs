// The transcripts of a corpus folder, in a stable order: every file under it but its notes (*.md).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function* corpusFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* corpusFiles(path);
    else if (!name.endsWith('.md')) yield path;
  }
}
