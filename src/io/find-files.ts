import type { Dirent, Stats } from 'node:fs';
import { normalize, sep } from 'node:path';
import { codeOf, reason } from '../errors.js';
import { readdirSync, realpathSync, statSync } from './named-fs.js';
import { specialKind } from './regular-file.js';

/** Which folders to look in and which files to take, by path relative to the root ('/'-separated). */
export interface SearchRules {
  enter(relative: string, name: string): boolean;
  wants(relative: string, name: string): boolean;
}

/** Never searched, at any depth: an installed package's test data is not a session. */
export const SKIPPED_FOLDER = 'node_modules';

/**
 * The rules for a folder given as input: every `*.jsonl` below it, as the glob `**\/*.jsonl`
 * would. Hidden folders and files are passed over, as ripgrep and ESLint do, except the folders
 * `enterHidden` names (the agents' own, where a copied home keeps its sessions); `hidden: true`
 * takes every one.
 */
export function transcriptFolder(enterHidden: (name: string) => boolean, hidden = false): SearchRules {
  return {
    enter: (_relative, name) => name !== SKIPPED_FOLDER && (hidden || !name.startsWith('.') || enterHidden(name)),
    wants: (_relative, name) => name.endsWith('.jsonl') && (hidden || !name.startsWith('.')),
  };
}

/** A regular file found, as reached (`path`) and with every symbolic link resolved (`real`). */
export interface FoundFile {
  path: string;
  real: string;
}

/** A wanted name that is not a regular file: a FIFO, socket or device is never opened. */
export interface SkippedFile {
  path: string;
  kind: string;
}

export interface Search {
  /** Sorted by path relative to the root. */
  files: FoundFile[];
  skipped: SkippedFile[];
  /** Folders not followed or not readable, one line each. */
  notes: string[];
}

interface Folder {
  path: string;
  relative: string;
  real: string;
}

/**
 * Searches a folder tree, following symbolic links the way a user expects (a linked session
 * folder is searched) without the ways that never end: every real folder is read once, so a
 * link to `.`, to `..` or a cycle between two folders cannot loop, and every real file is
 * found once however many paths lead to it. Folders reached without a link are searched first,
 * so a file reachable both ways is named by its plain path.
 */
export function findFiles(root: string, rules: SearchRules): Search {
  const search: Search = { files: [], skipped: [], notes: [] };
  const visited = new Set<string>();
  const taken = new Set<string>();
  const plain: Folder[] = [{ path: normalize(root), relative: '', real: realpathSync(root) }];
  const linked: Folder[] = [];
  const found: Array<FoundFile & { relative: string }> = [];

  const take = (path: string, relative: string, real: string): void => {
    if (taken.has(real)) return;
    taken.add(real);
    found.push({ path, relative, real });
  };

  for (let folder = plain.pop() ?? linked.shift(); folder !== undefined; folder = plain.pop() ?? linked.shift()) {
    if (visited.has(folder.real)) continue;
    visited.add(folder.real);
    const entries = readFolder(folder, search.notes);
    const subfolders: Folder[] = [];
    for (const { name, entry } of entries) {
      const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
      const path = inside(folder.path, name);
      if (entry.isDirectory()) {
        if (rules.enter(relative, name)) subfolders.push({ path, relative, real: inside(folder.real, name) });
      } else if (entry.isFile()) {
        if (rules.wants(relative, name)) take(path, relative, inside(folder.real, name));
      } else if (entry.isSymbolicLink()) {
        const enter = rules.enter(relative, name);
        const wants = rules.wants(relative, name);
        if (!enter && !wants) continue;
        const target = resolveLink(path);
        if (target === undefined) continue; // dangling, or a loop of links: not a transcript
        if (target.stats.isDirectory() && enter) {
          const real = target.real;
          if (contains(real, folder.real)) search.notes.push(`not following ${path}: it links back to a folder that holds it`);
          else linked.push({ path, relative, real });
        } else if (target.stats.isFile() && wants) {
          take(path, relative, target.real);
        } else if (wants) {
          const kind = specialKind(target.stats);
          if (kind !== undefined) search.skipped.push({ path, kind });
        }
      } else if (rules.wants(relative, name)) {
        const kind = specialKind(entry);
        if (kind !== undefined) search.skipped.push({ path, kind });
      }
    }
    // Popped last first: ascending order, so which of two paths to one file is kept does not vary.
    plain.push(...subfolders.reverse());
  }
  found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  search.files = found.map(({ path, real }) => ({ path, real }));
  return search;
}

/** A folder's entries in name order; a subfolder that cannot be read is noted and skipped, the root is an error. */
function readFolder(folder: Folder, notes: string[]): Array<{ name: string; entry: Dirent<Buffer> }> {
  try {
    return readdirSync(folder.path).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if (folder.relative === '') throw error;
    if (codeOf(error) !== 'ENOENT') notes.push(`cannot read folder ${folder.path}: ${reason(error)}`);
    return [];
  }
}

/** path.join for a name without separators, at a fraction of its cost (it runs once per file). */
function inside(folder: string, name: string): string {
  if (folder === '.') return name;
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

function resolveLink(path: string): { stats: Stats; real: string } | undefined {
  try {
    return { stats: statSync(path), real: realpathSync(path) };
  } catch {
    return undefined;
  }
}

/** Whether `inner` is `outer` or lies inside it (both real paths). */
function contains(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}
