import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every entry under `root` that `keep` takes, by its path from the root (`/a/b`): a file's bytes
 * (base64), a link's target (never followed), `fifo` for a FIFO (never opened). Two snapshots are
 * equal when nothing under the root was written, renamed, added or removed.
 */
export function folderSnapshot(root: string, keep: (name: string) => boolean = () => true): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (!keep(name)) continue;
      const path = join(dir, name);
      const info = lstatSync(path);
      const key = `/${relative(root, path)}`;
      if (info.isSymbolicLink()) entries[key] = `link → ${readlinkSync(path)}`;
      else if (info.isDirectory()) walk(path);
      else if (info.isFIFO()) entries[key] = 'fifo';
      else entries[key] = readFileSync(path).toString('base64');
    }
  };
  walk(root);
  return entries;
}
