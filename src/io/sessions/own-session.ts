import { resolve } from 'node:path';
import { codeOf, reason } from '../../errors.js';
import { realpathSync, statSync } from '../named-fs.js';
import type { Env, SessionAgent, SessionLayout } from './agent.js';
import { laidOut } from './walk.js';

/** What a path someone else hands us (a hook's input) is to an agent. */
export type OwnSession =
  /** One of its session files, by its real path: act on this, never on the name given, which may be a link. */
  | { kind: 'session'; path: string }
  /** Where one of its sessions would be, but there is no file (a session that never got a turn). */
  | { kind: 'missing' }
  /** Anything else, and why, in a few words (`it leads to /home/me/.ssh/id_ed25519`). */
  | { kind: 'foreign'; reason: string };

/**
 * Whether `given` is one of the agent's own session files. The path, resolved, must lie in one
 * of the agent's session folders the way its sessions do (SessionAgent.layouts, in the agent's
 * environment); links are then followed once, with realpath, and the real path must lie there
 * too (against the folders' own real paths, so a linked ~/.claude still counts) and be a regular
 * file. A link out of the folders, `..` climbing out, a FIFO, a file laid out as no session is
 * foreign: whoever writes must leave it alone.
 */
export function ownSession(agent: SessionAgent, given: string, env: Env): OwnSession {
  const layouts = agent.layouts(env);
  const folders = [...new Set(layouts.map((layout) => resolve(layout.root)))].join(', ');
  if (given.includes('\0')) return { kind: 'foreign', reason: 'it is not a path' };
  const path = resolve(given);
  if (!layouts.some((layout) => laidOut(path, layout))) return { kind: 'foreign', reason: `its sessions are in ${folders}` };
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'foreign', reason: `it cannot be resolved: ${reason(error)}` };
  }
  if (!realLayouts(layouts).some((layout) => laidOut(real, layout))) return { kind: 'foreign', reason: `it leads to ${real}` };
  const info = statSync(real, { throwIfNoEntry: false });
  if (info === undefined) return { kind: 'missing' };
  if (!info.isFile()) return { kind: 'foreign', reason: 'it is not a regular file' };
  return { kind: 'session', path: real };
}

/** The layouts with their roots' real paths; a root that is not there holds nothing. */
function realLayouts(layouts: readonly SessionLayout[]): SessionLayout[] {
  return layouts.flatMap((layout) => {
    try {
      return [{ ...layout, root: realpathSync(layout.root) }];
    } catch {
      return [];
    }
  });
}
