import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The other processes of this machine as Linux's /proc shows them: what each was started with,
 * where it works, which files it holds open. Elsewhere (no /proc) nothing is known and every
 * answer is empty. A process that ends while it is read, or that belongs to another user (its
 * folder and files are not ours to read), gives what could be read: often nothing.
 */
export interface ProcessView {
  pid: number;
  /** Its command line (argv), as /proc/<pid>/cmdline holds it; empty for a kernel thread. */
  argv: string[];
}

/** Every process but this one; undefined when there is no /proc to read. */
export function otherProcesses(): ProcessView[] | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const found: ProcessView[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline === '') continue;
    found.push({ pid, argv: cmdline.replace(/\0$/, '').split('\0') });
  }
  return found;
}

/** The folder a process works in; undefined when it cannot be read. */
export function workingFolderOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** Access mode bits of open(2)'s flags: 0 is read-only. */
const ACCESS_MODE = 0o3;

/**
 * Whether a process holds this descriptor open for writing, from /proc/<pid>/fdinfo (flags in
 * octal): a reader (`tail -f`, a pager) writes nothing. Unknown counts as writing.
 */
function writesThrough(pid: number, fd: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags === undefined || (parseInt(flags, 8) & ACCESS_MODE) !== 0;
  } catch {
    return true;
  }
}

/** The files among `wanted` (real paths) that a process holds open for writing. */
export function filesWrittenBy(pid: number, wanted: ReadonlySet<string>): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed since the folder was read
    }
    if (wanted.has(target) && writesThrough(pid, fd)) files.push(target);
  }
  return files;
}
