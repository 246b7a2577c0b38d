import type { Entry } from './entry.js';
import { ASSISTANT, flagMask, HAS_RESULTS, KIND_CODE, KIND_MASK, outcomeCode, OUTCOME_SHIFT, ROLE_SHIFT, TOOL_RESULT, USER } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';

/** Positions of a path's entries, read as entries: a context, or an array of entries. */
export interface PathItems {
  readonly length: number;
  at(at: number): Entry | undefined;
}

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

/**
 * The context of a path in columns: a path of a huge file holds one row per entry, and no
 * entry object. `at` gives a position's entry as a fresh view. Messages are numbered when first
 * asked for: the history as if never compacted, as long as the file, is mostly only paired.
 */
export class Context implements PathItems {
  readonly length: number;
  private numbers: MessageNumbers | undefined;

  constructor(
    readonly store: EntryStore,
    /** Entry index per position. */
    readonly indices: Int32Array,
  ) {
    this.length = indices.length;
  }

  /** Each position's index in the provider's messages (see ContextItem.messageIndex). */
  get messageIndex(): Int32Array {
    return (this.numbers ??= numberMessages(this.store, this.indices)).messageIndex;
  }

  /** Each position's place inside its message (see ContextItem.blockIndex). */
  get blockIndex(): Int32Array {
    return (this.numbers ??= numberMessages(this.store, this.indices)).blockIndex;
  }

  at(at: number): Entry {
    return this.store.at(this.indices[at]!);
  }

  *[Symbol.iterator](): Iterator<Entry> {
    for (let at = 0; at < this.length; at++) yield this.at(at);
  }
}

const COMPACTION = KIND_CODE['compaction'];
const IN_CONTEXT = flagMask('inContext');

/**
 * The entries of a root-to-leaf path that reach the model, in order. With a compaction on the
 * path, the latest one wins: its summary comes first, then the kept entries from its
 * `firstKeptId` up to it (none if that id is not on the path), then everything after it.
 * Without `compact`, compactions are ignored: the history as if it had never been compacted.
 */
export function buildContext(entries: EntryStore, path: readonly number[], compact = true): Context {
  const isCompaction = (i: number) => (entries.info[i]! & KIND_MASK) === COMPACTION;
  let compactionAt = -1;
  for (let i = compact ? path.length - 1 : -1; i >= 0; i--) {
    if (isCompaction(path[i]!)) {
      compactionAt = i;
      break;
    }
  }
  const selected = new Int32Array(path.length);
  let count = 0;
  const select = (i: number) => {
    if ((entries.info[i]! & IN_CONTEXT) !== 0) selected[count++] = i;
  };
  if (compactionAt === -1) {
    for (const index of path) if (!isCompaction(index)) select(index);
  } else {
    const compaction = path[compactionAt]!;
    select(compaction);
    const kept = entries.rare.get(compaction)?.firstKeptRef ?? -2;
    let keptFrom = compactionAt;
    for (let i = 0; i < compactionAt; i++) {
      if (entries.idRef[path[i]!] === kept) {
        keptFrom = i;
        break;
      }
    }
    for (let i = keptFrom; i < compactionAt; i++) if (!isCompaction(path[i]!)) select(path[i]!);
    for (let i = compactionAt + 1; i < path.length; i++) select(path[i]!);
  }
  return new Context(entries, selected.subarray(0, count));
}

/** The context of entries sent as they are, in the order given: a conversation no compaction or flag trims (a sub-agent's own). */
export function listContext(entries: EntryStore, indices: readonly number[]): Context {
  return new Context(entries, Int32Array.from(indices));
}

const ERROR = outcomeCode('error');
const ABORTED = outcomeCode('aborted');
const EMPTY_CONTENT = flagMask('emptyContent');
const BLANK_TEXT = flagMask('blankText');

/** Each position's message index and place in its message (see ContextItem). */
interface MessageNumbers {
  messageIndex: Int32Array;
  blockIndex: Int32Array;
}

function numberMessages(entries: EntryStore, indices: Int32Array): MessageNumbers {
  const numbers: MessageNumbers = { messageIndex: new Int32Array(indices.length), blockIndex: new Int32Array(indices.length) };
  let next = 0;
  let resultRun = 0;
  let group = -1;
  let groupBlocks = 0;
  for (let at = 0; at < indices.length; at++) {
    const i = indices[at]!;
    const sent = isSent(entries, i);
    const entryGroup = entries.group(i);
    if (entryGroup !== -1 && entryGroup === group && sent) {
      // Another line of the same message: same index, its blocks come after the earlier lines'.
      numbers.messageIndex[at] = next - 1;
      numbers.blockIndex[at] = groupBlocks;
      groupBlocks += entries.blockCount(i);
      continue;
    }
    if (sent) group = entryGroup;
    groupBlocks = entries.blockCount(i);
    if (entries.roleCode(i) === TOOL_RESULT) {
      if (resultRun === 0) next += 1;
      numbers.messageIndex[at] = next - 1;
      numbers.blockIndex[at] = resultRun;
      const results = (entries.info[i]! & HAS_RESULTS) === 0 ? 0 : entries.resultEnd(i) - entries.resultStart(i);
      resultRun += Math.max(1, results);
    } else if (!sent) {
      numbers.messageIndex[at] = -1;
    } else {
      numbers.messageIndex[at] = next;
      next += 1;
      resultRun = 0;
    }
  }
  return numbers;
}

/** pi drops failed assistant turns, empty assistants and blank user messages before sending. */
function isSent(entries: EntryStore, i: number): boolean {
  const info = entries.info[i]!;
  const role = (info >> ROLE_SHIFT) & 0x7;
  if (role === ASSISTANT) {
    const outcome = (info >> OUTCOME_SHIFT) & 0xf;
    return outcome !== ERROR && outcome !== ABORTED && (info & EMPTY_CONTENT) === 0;
  }
  if (role === USER) return (info & BLANK_TEXT) === 0;
  return true;
}
