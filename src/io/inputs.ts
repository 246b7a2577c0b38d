import { realpathSync, stat, statSync } from './named-fs.js';
import { resolve } from 'node:path';
import { codeOf, reason, UserError } from '../errors.js';
import { findFiles, transcriptFolder, type Search, type SearchRules, type SkippedFile } from './find-files.js';
import { notRegularReason, specialKind } from './regular-file.js';
import { terminalText } from '../report/terminal-text.js';
import { sessionAgents } from './sessions/index.js';
import { looksLikeSessionRef, resolveSessionRef } from './sessions/resolve.js';

/** One transcript to read: a file path, or standard input. */
export type Input = { kind: 'file'; path: string } | { kind: 'stdin'; path: '-' };

/** Glob support is loaded on first use: scanning named files and folders should not pay for it. */
function globs() {
  return import('./glob-search.js');
}

/**
 * Files, directories (searched for `**\/*.jsonl`, into the agents' hidden folders but no other
 * hidden one unless `options.hidden`), glob patterns and `-` become a list of
 * inputs, each real file once however many paths lead to it, in the order given (directory and
 * glob matches sorted). Files that folder and glob searches find are left out when they match an
 * ignore pattern (absolute globs, from the project config); a file named itself is always
 * checked, as Ruff does without --force-exclude, and a search whose every file is ignored says
 * so. FIFOs, sockets and devices are never opened: each is skipped with a
 * warning, and when nothing else is left that is an error. Folder loops and unreadable
 * subfolders are warned about too. A named path that is not there is an error; with `onMissing`
 * (the command line) it is one only when nothing else is, and otherwise is warned about and
 * counted, so one bad name in a long list does not stop the others being checked. A name that
 * is no file but looks like a session id, the start of one, or `latest` stands for the session
 * files it names (sessions/resolve.ts); an id that starts several is an error listing them.
 */
export async function expandInputs(
  args: readonly string[],
  ignores: readonly string[] = [],
  warn: (message: string) => void = (message) => process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`),
  onMissing?: (path: string) => void,
  options: { hidden?: boolean } = {},
): Promise<Input[]> {
  const inputs: Input[] = [];
  const seen = new Set<string>();
  const skipped: SkippedFile[] = [];
  const missing: string[] = [];
  const warnings: string[] = [];
  const ignored = ignores.length === 0 ? () => false : (await import('picomatch')).default([...ignores], { dot: true });
  let ignoredCount = 0;
  // A name that is no file but looks like a session id (or is `latest`) names the sessions it resolves to.
  const triedAsSession = new Set<string>();
  const add = (path: string, real: string, named = false): void => {
    if (seen.has(real)) return;
    if (!named && ignored(resolve(path))) {
      ignoredCount++;
      return;
    }
    seen.add(real);
    inputs.push({ kind: 'file', path });
  };
  const skip = (file: SkippedFile): void => {
    if (ignored(resolve(file.path))) return;
    skipped.push(file);
    warnings.push(`skipped ${file.path}: ${notRegularReason(file.kind)}`);
  };
  const addFound = (search: Search): void => {
    search.files.forEach((file) => add(file.path, file.real));
    warnings.push(...search.notes);
    search.skipped.forEach(skip);
  };
  for (const arg of args) {
    if (arg === '-') {
      if (!seen.has('-')) inputs.push({ kind: 'stdin', path: '-' });
      seen.add('-');
      continue;
    }
    const info = pathInfo(arg);
    if (info?.isDirectory()) {
      const search = searchFolder(arg, transcriptFolder(isAgentFolder, options.hidden));
      if (search.files.length === 0 && search.skipped.length === 0) throw new UserError(`no *.jsonl files in directory ${arg}`);
      addFound(search);
    } else if (info?.isFile()) {
      add(arg, realpathSync(arg), true);
    } else if (info !== undefined) {
      skip({ path: arg, kind: specialKind(info) ?? 'an unknown kind of file' });
    } else if ((await globs()).isGlob(arg)) {
      const { root, rules } = (await globs()).globSearch(arg);
      const search = pathInfo(root)?.isDirectory() ? searchFolder(root, rules) : undefined;
      if (search === undefined || (search.files.length === 0 && search.skipped.length === 0)) throw new UserError(`no files match ${arg}`);
      addFound(search);
    } else {
      const found = looksLikeSessionRef(arg) ? resolveSessionRef(arg) : undefined;
      if (found !== undefined) triedAsSession.add(arg);
      if (found !== undefined && found.length > 0) found.forEach((session) => add(session.path, realOrSelf(session.path), true));
      else if (onMissing === undefined) throw new UserError(notThere(arg, triedAsSession));
      else missing.push(arg);
    }
  }
  if (inputs.length === 0 && missing.length > 0) {
    throw new UserError(`${notThere(missing[0]!, triedAsSession)}${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`);
  }
  for (const path of missing) {
    warnings.push(`cannot read ${notThere(path, triedAsSession)}`);
    onMissing?.(path);
  }
  if (inputs.length === 0 && skipped.length > 0) {
    const more = skipped.length > 1 ? ` (and ${skipped.length - 1} more that are not regular files)` : '';
    throw new UserError(`nothing to read: ${skipped[0]!.path} is ${notRegularReason(skipped[0]!.kind)}${more}`);
  }
  if (inputs.length === 0 && ignoredCount > 0) warnings.push(`every file found (${ignoredCount}) is excluded by the project config's "ignores" (--print-config shows it); name a file to check it anyway`);
  warnings.forEach(warn);
  return inputs;
}

/** The agents' own hidden folders (`.claude`, `.codex`, …), from the agents table (read each time: an agent may be registered later). */
const isAgentFolder = (name: string): boolean => sessionAgents.some((agent) => agent.homeFolder === name);

/** Why a name reads nothing: no file, and (when it looked like one) no session either. */
function notThere(arg: string, triedAsSession: ReadonlySet<string>): string {
  if (!triedAsSession.has(arg)) return `${arg}: no such file or directory`;
  return arg === 'latest' ? 'latest: no such file or directory, and no session of this folder\'s project' : `${arg}: no such file or directory, and no session id starts with it`;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function searchFolder(root: string, rules: SearchRules): Search {
  try {
    return findFiles(root, rules);
  } catch (error) {
    throw new UserError(`cannot read folder ${root}: ${reason(error)}`);
  }
}

/** What a path leads to (links followed); undefined when nothing is there. */
function pathInfo(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UserError(`${path}: ${reason(error)}`);
  }
}

/**
 * Where the agents whose formats we read (`readable`: format names) keep sessions on this
 * machine, whether or not the folders exist, from the agents table (src/agents). Some agents nest
 * their sessions by date or project; folder search finds them wherever they lie below those folders.
 */
export async function standardLocations(readable: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  return sessionAgents.filter((agent) => readable.includes(agent.format)).flatMap((agent) => agent.roots(env));
}

export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
