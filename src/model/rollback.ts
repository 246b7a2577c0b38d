import { flagMask, KIND_CODE, KIND_MASK, ROLE_SHIFT, USER } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';

const LINKS_TO_PREVIOUS = flagMask('linksToPrevious');
const IN_CONTEXT = flagMask('inContext');
const COMPACTION = KIND_CODE['compaction'];

/**
 * An agent that can take turns back (Codex's `thread_rolled_back`) leaves them in its linear file
 * and writes a marker saying how many user turns go. The marker is hung on the entry before the
 * first turn it takes back, so those turns become a branch the agent no longer replays, judged
 * as every abandoned branch is. Turns are counted over user messages, never back past a
 * compaction: the history before it is gone already. Costs one look over the rare map when no
 * entry takes turns back. Returns whether any entry does.
 */
export function applyRollbacks(entries: EntryStore, parent: Int32Array): boolean {
  let any = false;
  for (const rare of entries.rare.values()) {
    if (rare.rollsBackTurns !== undefined) {
      any = true;
      break;
    }
  }
  if (!any) return false;
  const users: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const info = entries.info[i]!;
    if ((info & LINKS_TO_PREVIOUS) === 0) continue;
    if ((info & KIND_MASK) === COMPACTION) users.length = 0;
    else if (((info >> ROLE_SHIFT) & 0x7) === USER && (info & IN_CONTEXT) !== 0) users.push(i);
    const turns = entries.rare.get(i)?.rollsBackTurns;
    if (turns === undefined || users.length === 0) continue;
    const cut = users[Math.max(0, users.length - turns)]!;
    users.length = Math.max(0, users.length - turns);
    parent[i] = parent[cut]!;
  }
  return true;
}
