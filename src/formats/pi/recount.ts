import type { RecountInput } from '../compaction.js';
import { isObject, type Json } from '../json.js';
import { positionOf } from '../../model/entry.js';
import { compactionTime } from './compaction-time.js';
import { piEncoder } from './encode.js';

/**
 * pi decides before a prompt from the last assistant message's usage, and ignores that usage once
 * a compaction entry is stamped at or after it (agent-session.js, _checkCompaction; its context
 * meter then waits for the next response). After slim trimmed what that usage counted, this is the
 * compaction entry that tells pi so while cutting nothing: it keeps from where pi's context
 * already starts (the root, or the first entry the latest compaction kept), so pi's
 * buildSessionContext replays every message as before with the summary first. The summary carries
 * the latest compaction's on (pi shows only the latest) and says what slim changed; its file lists
 * go on too, as pi's next compaction reads them. Undefined when slim compacted (that record does
 * the same), or the file names entries by position (v1), which no compaction entry can.
 */
export function piRecount({ analysis, read, compacted, note, tokensBefore }: RecountInput): Json | undefined {
  if (compacted) return undefined;
  const { entries, tree } = analysis;
  const path = tree.replayPath;
  const leaf = entries.at(tree.leaf);
  let latest = -1;
  for (let i = path.length - 1; i >= 0 && latest === -1; i--) if (entries.kind(path[i]!) === 'compaction') latest = i;
  let keptFrom = 0;
  let summary = note;
  let details: Json = { readFiles: [], modifiedFiles: [] };
  if (latest !== -1) {
    // As pi's buildSessionContext: from the entry the compaction names, else from the one after it.
    const kept = entries.rare.get(path[latest]!)?.firstKeptRef;
    keptFrom = latest + 1;
    for (let i = 0; i < latest; i++) {
      if (kept !== undefined && entries.idRef[path[i]!] === kept) {
        keptFrom = i;
        break;
      }
    }
    const earlier = read(path[latest]!);
    if (isObject(earlier)) {
      if (typeof earlier.summary === 'string' && earlier.summary !== '') summary = `${earlier.summary}\n\n${note}`;
      if (isObject(earlier.details)) details = earlier.details;
    }
  }
  const firstKept = keptFrom < path.length ? entries.at(path[keptFrom]!).id : undefined;
  if (firstKept === undefined || positionOf(firstKept) !== undefined || leaf.id === undefined) return undefined;
  return {
    type: 'compaction',
    id: piEncoder.newId(`recount:${leaf.id}:${firstKept}`),
    parentId: leaf.id,
    timestamp: compactionTime(analysis, read),
    summary,
    firstKeptEntryId: firstKept,
    tokensBefore: Math.round(tokensBefore),
    details,
  };
}
