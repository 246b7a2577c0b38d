import { isFailed, type Entry } from './entry.js';

/** One entry of a path as the model would receive it on replay. */
export interface ContextItem {
  entry: Entry;
  /**
   * Index in the provider's `messages` array, counted the way pi builds an Anthropic
   * request: failed and transcript-only assistants are left out, consecutive tool results
   * share one user message. -1 when the entry is not sent at all.
   */
  messageIndex: number;
  /** Position of a tool result inside its shared user message. */
  blockIndex: number;
}

/** The context of a path in columns: a path of a huge file holds one row per entry. */
export interface Context {
  entries: Entry[];
  messageIndex: Int32Array;
  blockIndex: Int32Array;
}

/**
 * The entries of a root-to-leaf path that reach the model, in order. With a compaction on the
 * path, the latest one wins: its summary comes first, then the kept entries from its
 * `firstKeptId` up to it (none if that id is not on the path), then everything after it.
 * Without `compact`, compactions are ignored: the history as if it had never been compacted.
 */
export function buildContext(entries: readonly Entry[], path: readonly number[], compact = true): Context {
  let compactionAt = -1;
  for (let i = compact ? path.length - 1 : -1; i >= 0; i--) {
    if (entries[path[i]!]!.kind === 'compaction') {
      compactionAt = i;
      break;
    }
  }
  const selected: Entry[] = [];
  if (compactionAt === -1) {
    for (const index of path) if (entries[index]!.kind !== 'compaction') selected.push(entries[index]!);
  } else {
    const compaction = entries[path[compactionAt]!]!;
    selected.push(compaction);
    let keptFrom = compactionAt;
    for (let i = 0; i < compactionAt; i++) {
      if (entries[path[i]!]!.id === compaction.firstKeptId) {
        keptFrom = i;
        break;
      }
    }
    for (let i = keptFrom; i < compactionAt; i++) {
      const entry = entries[path[i]!]!;
      if (entry.kind !== 'compaction') selected.push(entry);
    }
    for (let i = compactionAt + 1; i < path.length; i++) selected.push(entries[path[i]!]!);
  }
  return numberMessages(selected.filter((entry) => entry.inContext));
}

function numberMessages(entries: Entry[]): Context {
  const context: Context = {
    entries,
    messageIndex: new Int32Array(entries.length),
    blockIndex: new Int32Array(entries.length),
  };
  let next = 0;
  let resultRun = 0;
  let group: string | undefined;
  let groupBlocks = 0;
  entries.forEach((entry, at) => {
    if (entry.group !== undefined && entry.group === group && isSent(entry)) {
      // Another line of the same message: same index, its blocks come after the earlier lines'.
      context.messageIndex[at] = next - 1;
      context.blockIndex[at] = groupBlocks;
      groupBlocks += entry.blockCount;
      return;
    }
    group = isSent(entry) ? entry.group : group;
    groupBlocks = entry.blockCount;
    if (entry.role === 'toolResult') {
      if (resultRun === 0) next += 1;
      context.messageIndex[at] = next - 1;
      context.blockIndex[at] = resultRun;
      resultRun += Math.max(1, entry.toolResults?.length ?? 0);
    } else if (!isSent(entry)) {
      context.messageIndex[at] = -1;
    } else {
      context.messageIndex[at] = next;
      next += 1;
      resultRun = 0;
    }
  });
  return context;
}

/** pi drops failed assistant turns, empty assistants and blank user messages before sending. */
function isSent(entry: Entry): boolean {
  if (entry.role === 'assistant') return !isFailed(entry) && !entry.emptyContent;
  if (entry.role === 'user') return !entry.blankText;
  return true;
}
