import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { closeSync, readSync } from 'node:fs';
import { readdirSync, statSync } from '../named-fs.js';
import { openRegularSync } from '../regular-file.js';
import type { SessionFile, SessionLayout } from './agent.js';

/**
 * Files below `root` whose path matches `levels`, one pattern per folder level and the last for
 * the file name; each result is the list of names from the root down. Links are followed (a
 * linked session folder is searched); a level that cannot be read is passed over, since a folder
 * an agent has not made yet is the usual case.
 */
function filesAt(root: string, levels: readonly RegExp[]): string[][] {
  const found: string[][] = [];
  const visit = (folder: string, names: string[]) => {
    const level = levels[names.length]!;
    const last = names.length === levels.length - 1;
    let entries: string[];
    try {
      entries = readdirSync(folder).map((entry) => entry.name).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      if (!level.test(name)) continue;
      const path = join(folder, name);
      let isDirectory: boolean;
      try {
        isDirectory = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (last && !isDirectory) found.push([...names, name]);
      else if (!last && isDirectory) visit(path, [...names, name]);
    }
  };
  visit(root, []);
  return found;
}

/** Session files below `root` laid out as `levels`, each with the id `idOf` reads from its names. */
export function sessionsAt(agent: string, root: string, levels: readonly RegExp[], idOf: (names: string[]) => string | undefined): SessionFile[] {
  const sessions: SessionFile[] = [];
  for (const names of filesAt(root, levels)) {
    const id = idOf(names);
    if (id !== undefined) sessions.push({ agent, path: join(root, ...names), id });
  }
  return sessions;
}

/** Whether `path` names a file below the layout's root, each name from the root down matching its level. */
export function laidOut(path: string, layout: SessionLayout): boolean {
  const below = relative(resolve(layout.root), resolve(path));
  if (below === '' || isAbsolute(below) || below === '..' || below.startsWith(`..${sep}`)) return false;
  const names = below.split(sep);
  return names.length === layout.levels.length && names.every((name, i) => layout.levels[i]!.test(name));
}

/** `/home/me/proj` as agents that dash a path name its project folder (Claude Code, Qwen Code): every character but a letter or digit becomes `-`. */
export function dashed(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The first `maxBytes` of a session as text (undefined when the file cannot be read or is not a
 * regular file): some agents keep the session id or the working folder only at its start.
 */
export function headOf(path: string, maxBytes: number): string | undefined {
  let opened: { fd: number; size: number };
  try {
    opened = openRegularSync(path);
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes));
    const read = readSync(opened.fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** A session's first line, up to `maxBytes`. */
export function firstLine(path: string, maxBytes = 64 * 1024): string | undefined {
  const head = headOf(path, maxBytes);
  const end = head?.indexOf('\n') ?? -1;
  return end === -1 ? head : head!.slice(0, end);
}
