import { statSync } from '../io/named-fs.js';
import { expandInputs, isDirectory, standardLocations } from '../io/inputs.js';
import { formats } from '../formats/registry.js';

export interface Candidates {
  /** Session files, newest first (modification time): the session that just failed was just written. */
  files: string[];
  /** What was searched, for a "looked in …" line. */
  searched: string[];
}

/** The files named (or, with none, those in the standard session folders that exist here), newest first. */
export async function findCandidates(paths: readonly string[], hidden = false): Promise<Candidates> {
  let searched: string[];
  let files: string[];
  if (paths.length > 0) {
    searched = [...paths];
    files = (await expandInputs(paths, [], undefined, undefined, { hidden })).filter((input) => input.kind === 'file').map((input) => input.path);
  } else {
    searched = [];
    files = [];
    for (const location of await standardLocations(formats.map((format) => format.name))) {
      searched.push(location);
      if (!(await isDirectory(location))) continue;
      const found = await expandInputs([location]).catch(() => []);
      for (const input of found) if (input.kind === 'file') files.push(input.path);
    }
  }
  return { files: newestFirst(files), searched };
}

function newestFirst(files: readonly string[]): string[] {
  const times = files.map((file) => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  });
  // Equal times keep the listing's order, so a run is repeatable.
  return files.map((file, order) => ({ file, order, time: times[order]! })).sort((a, b) => b.time - a.time || a.order - b.order).map((item) => item.file);
}
