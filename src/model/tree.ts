import type { Entry } from './entry.js';
import { flagMask, KIND_MASK, KIND_CODE } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';
import { IdIndex } from './id-index.js';
import { applyRollbacks } from './rollback.js';
import type { ReplaySemantics } from './transcript.js';

/** The conversation tree over a file's entries, as pi resolves it. Indices are entry indices. */
export interface Tree {
  /** Parent entry index, or -1 for roots, headers and broken links. */
  parent: Int32Array;
  /** Last non-header entry in file order: pi resumes from here (Claude Code past a copy, see ReplaySemantics.resumesPastCopies). -1 when there is none. */
  leaf: number;
  /** Entries from the root down to the leaf. */
  replayPath: number[];
  /** Entries that nothing names as parent (conversation ends). */
  leaves: number[];
  /** Entries whose parent id names no entry. */
  unknownParents: number[];
  /** Each cycle once (an entry that is its own parent is a cycle of one). */
  cycles: number[][];
  /** Later entries that reuse an earlier entry's id, with the previous entry of that id. */
  duplicateIds: Array<{ entry: number; first: number }>;
  /** Entry index for an id; with duplicates the format decides which one the agent keeps (pi: the last). */
  byId: IdIndex;
}

const HEADER = KIND_CODE['header'];
const UNKNOWN = KIND_CODE['unknown'];
const LINKS_TO_PREVIOUS = flagMask('linksToPrevious');

/**
 * `bridge`: an entry whose parent names no entry hangs on the entry written before it (see
 * ReplaySemantics.bridgesUnknownParents). `ids`: the index indexIds made with the same `keep`, when the caller has it.
 * `pastCopies`: see ReplaySemantics.resumesPastCopies.
 */
export function buildTree(entries: EntryStore, keep: ReplaySemantics['duplicateIds'] = 'last', bridge = false, ids = indexIds(entries, keep), pastCopies = false): Tree {
  const { byId, duplicateIds } = ids;
  const parent = new Int32Array(entries.length).fill(-1);
  const unknownParents: number[] = [];
  const selfLoops: number[][] = [];
  let previous = -1;
  let leaf = -1;
  // Every node hanging on the node before it: the tree is the file's order (headers and other non-nodes stand aside).
  let chain = true;
  for (let i = 0; i < entries.length; i++) {
    if (!isNode(entries, i)) continue;
    const ref = entries.parentRef[i]!;
    if ((entries.info[i]! & LINKS_TO_PREVIOUS) !== 0) {
      parent[i] = previous;
    } else if (ref >= 0) {
      chain = false;
      const target = byId.ofHandle(ref);
      if (target === undefined) {
        unknownParents.push(i);
        if (bridge) parent[i] = previous;
      } else if (target === i) selfLoops.push([i]);
      else parent[i] = target;
    } else chain = false;
    previous = i;
    leaf = i;
  }
  if (applyRollbacks(entries, parent)) chain = false;
  if (chain) return chainTree(entries, parent, leaf, byId, duplicateIds);
  if (pastCopies && keep === 'first') leaf = leafPastCopy(entries, parent, leaf, duplicateIds);

  return {
    parent,
    leaf,
    replayPath: leaf === -1 ? [] : new PathWalker(parent).path(leaf),
    leaves: findLeaves(entries, parent),
    unknownParents,
    cycles: [...selfLoops, ...findCycles(parent)],
    duplicateIds,
    byId,
  };
}

/**
 * Where the last node is a later copy of an id (the agent keeps the first) that hangs elsewhere,
 * while lines written before it hang on that id, the agent resumes from those lines: Claude Code
 * 2.1.328 takes the newest line whose chain passes through the last line's uuid (tried offline),
 * which in a file written in order is the last-written one. A copy that continues the
 * conversation through its own id stays the leaf. The copy resumed past is left hanging on
 * nothing: what it says stands in for the id's first entry, which stays on the path, so it is no
 * result or branch of its own beside it.
 */
function leafPastCopy(entries: EntryStore, parent: Int32Array, leaf: number, duplicateIds: Tree['duplicateIds']): number {
  const copy = duplicateIds.find(({ entry }) => entry === leaf);
  if (copy === undefined) return leaf;
  const through = new PathWalker(parent);
  if (through.path(leaf).includes(copy.first)) return leaf;
  // 1 hangs on the first copy, 2 does not, 3 on the walk under way (met again: a cycle); each
  // walk stops at the first node already known, so every node is walked once.
  const state = new Uint8Array(parent.length);
  state[copy.first] = 1;
  let found = -1;
  const walk: number[] = [];
  for (let i = 0; i < parent.length; i++) {
    if (i === leaf || !isNode(entries, i)) continue;
    let at = i;
    while (at !== -1 && state[at] === 0) {
      state[at] = 3;
      walk.push(at);
      at = parent[at]!;
    }
    const verdict = at !== -1 && state[at] === 1 ? 1 : 2;
    for (const node of walk) state[node] = verdict;
    walk.length = 0;
    if (verdict === 1 && i !== copy.first) found = i;
  }
  if (found === -1) return leaf;
  parent[leaf] = -1;
  return found;
}

/** The tree of nodes that each hang on the node before them: one path of every node, one leaf, no cycle. */
function chainTree(entries: EntryStore, parent: Int32Array, leaf: number, byId: IdIndex, duplicateIds: Tree['duplicateIds']): Tree {
  const replayPath: number[] = [];
  for (let i = 0; i < parent.length; i++) if (isNode(entries, i)) replayPath.push(i);
  return { parent, leaf, replayPath, leaves: leaf === -1 ? [] : [leaf], unknownParents: [], cycles: [], duplicateIds, byId };
}

/** The id index of the tree's entries, and each later entry that reuses an earlier one's id. */
export function indexIds(entries: EntryStore, keep: ReplaySemantics['duplicateIds'] = 'last'): Pick<Tree, 'byId' | 'duplicateIds'> {
  const byId = new IdIndex(entries);
  const duplicateIds: Tree['duplicateIds'] = [];
  for (let i = 0; i < entries.length; i++) {
    if (!isNode(entries, i) || entries.idRef[i] === -1) continue;
    const earlier = byId.add(i, keep === 'first');
    if (earlier !== undefined) duplicateIds.push({ entry: i, first: earlier });
  }
  return { byId, duplicateIds };
}

/** Headers and lines of unknown types without an id are not conversation nodes. */
export function inTree(entry: Entry): boolean {
  return entry.kind !== 'header' && (entry.kind !== 'unknown' || entry.id !== undefined);
}

/** inTree, read from the columns. */
export function isNode(entries: EntryStore, i: number): boolean {
  const kind = entries.info[i]! & KIND_MASK;
  return kind !== HEADER && (kind !== UNKNOWN || entries.idRef[i] !== -1);
}


/**
 * Walks parent links towards the root. Visits are stamped in one shared array, so a walk
 * allocates nothing but its result and still stops at a repeat (a cycle cannot loop forever).
 */
export class PathWalker {
  private readonly stamps: Int32Array;
  private stamp = 0;
  private walk: Int32Array | undefined;

  constructor(private readonly parent: Int32Array) {
    this.stamps = new Int32Array(parent.length);
  }

  /**
   * Root-to-node path; with `stopAt`, the walk ends `extra` entries after the first entry it marks,
   * or up to `extra` more while `goesOn` holds for the entry it ended at.
   */
  path(node: number, stopAt?: Uint8Array, extra = 0, goesOn?: (index: number) => boolean): number[] {
    this.stamp += 1;
    // Walked into a scratch column first, so the path itself is allocated once at its size.
    this.walk ??= new Int32Array(this.parent.length);
    let length = 0;
    let remaining = -1;
    let more = extra;
    for (let at = node; at !== -1 && this.stamps[at] !== this.stamp; at = this.parent[at]!) {
      if (remaining === 0) {
        if (goesOn === undefined || more === 0 || !goesOn(this.walk[length - 1]!)) break;
        more -= 1;
      }
      this.stamps[at] = this.stamp;
      this.walk[length++] = at;
      if (remaining > 0) remaining -= 1;
      else if (remaining === -1 && stopAt !== undefined && stopAt[at] === 1) remaining = extra;
    }
    const path: number[] = new Array(length);
    for (let i = 0; i < length; i++) path[i] = this.walk[length - 1 - i]!;
    return path;
  }
}

function findLeaves(entries: EntryStore, parent: Int32Array): number[] {
  const hasChild = new Uint8Array(entries.length);
  for (let i = 0; i < parent.length; i++) if (parent[i]! !== -1) hasChild[parent[i]!] = 1;
  const leaves: number[] = [];
  for (let i = 0; i < entries.length; i++) if (isNode(entries, i) && hasChild[i] === 0) leaves.push(i);
  return leaves;
}

/** Every node has at most one parent, so each cycle is found by one walk with three colours. */
function findCycles(parent: Int32Array): number[][] {
  const state = new Uint8Array(parent.length); // 0 new, 1 on the current walk, 2 done
  const walk = new Int32Array(parent.length);
  const cycles: number[][] = [];
  for (let start = 0; start < parent.length; start++) {
    if (state[start] !== 0) continue;
    let length = 0;
    let at = start;
    while (at !== -1 && state[at] === 0) {
      state[at] = 1;
      walk[length++] = at;
      at = parent[at]!;
    }
    if (at !== -1 && state[at] === 1) cycles.push(Array.from(walk.subarray(walk.subarray(0, length).indexOf(at), length)));
    for (let i = 0; i < length; i++) state[walk[i]!] = 2;
  }
  return cycles;
}
