import type { ToolResultRef } from './entry.js';
import { ASSISTANT, flagMask, TOOL_RESULT } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';
import { buildContext, type Context, type ContextItem } from './context.js';
import { analyzePairing, type Pairing, type ResultSlot } from './pairing.js';
import { buildTree, PathWalker, type Tree } from './tree.js';
import { semanticsOf, type Transcript } from './transcript.js';

/** Where an entry stands relative to what the agent would replay. */
export type ReplayStatus = 'replayed' | 'compacted' | 'abandoned';

/**
 * One root-to-leaf path with the context it produces and its pairing. Only the replayed path
 * speaks for every entry; the others judge entries the replay never sends, and their findings
 * count only for entries with that status.
 */
export interface PathView {
  scope: 'replay' | Exclude<ReplayStatus, 'replayed'>;
  context: Context;
  pairing: Pairing;
  /** The context entry at a position. */
  itemAt(at: number): ContextItem;
  /** The context entry for an entry index, when the path sends it. */
  itemOf(entry: number): ContextItem | undefined;
  /** A result and where a provider sees it (its block index counts the results before it in the same message). */
  resultItem(slot: ResultSlot): ContextItem & { result: ToolResultRef };
}

export interface Analysis {
  transcript: Transcript;
  entries: EntryStore;
  tree: Tree;
  /** The conversation the agent would send. */
  replay: PathView;
  /** The replayed path's entries, with results the format replays beside it (see ReplaySemantics). */
  replayed: readonly number[];
  /** The replayed path first, then the same path as if never compacted, then each abandoned branch. */
  paths: PathView[];
  status(entry: number): ReplayStatus;
}

const IN_CONTEXT = flagMask('inContext');

/** Abandoned branches are judged with this much shared history before their fork point. */
const BRANCH_LOOKBACK = 500;

/** `tree`: the transcript's tree as it stands, when the caller has just built it. */
export function analyze(transcript: Transcript, tree?: Tree): Analysis {
  const entries = transcript.entries;
  const semantics = semanticsOf(transcript);
  tree ??= buildTree(entries, semantics.duplicateIds, semantics.bridgesUnknownParents === true);
  const onPath = new Uint8Array(entries.length);
  for (const index of tree.replayPath) onPath[index] = 1;
  const replayed = semantics.resultsBesidePath ? withResultsBeside(entries, tree, onPath) : tree.replayPath;
  const replay = makePath(entries, replayed, 'replay');
  const sent = new Uint8Array(entries.length);
  for (const index of replay.context.indices) sent[index] = 1;

  // The other views are made when first asked for: planning a repair reads only the replayed path.
  let paths: PathView[] | undefined;
  const allPaths = (): PathView[] => {
    if (paths !== undefined) return paths;
    paths = [replay];
    if (tree.replayPath.some((index) => entries.kind(index) === 'compaction')) {
      paths.push(makePath(entries, replayed, 'compacted', false));
    }
    const walker = new PathWalker(tree.parent);
    for (const leaf of tree.leaves) {
      if (leaf !== tree.leaf) paths.push(makePath(entries, walker.path(leaf, onPath, BRANCH_LOOKBACK), 'abandoned'));
    }
    return paths;
  };

  return {
    transcript,
    entries,
    tree,
    replay,
    replayed,
    get paths() {
      return allPaths();
    },
    status(entry) {
      if (sent[entry] === 1) return 'replayed';
      if (onPath[entry] === 0) return 'abandoned';
      return (entries.info[entry]! & IN_CONTEXT) !== 0 ? 'compacted' : 'replayed';
    },
  };
}

/**
 * For agents that hang each parallel result on its own call line (Claude Code), what sits beside
 * the path is replayed too: the other lines of a response on the path (lines of one message id,
 * each a child of the line before it or of the first, which the agent merges into one message),
 * and the results that hang off any of them, after that message and before the path goes on.
 */
function withResultsBeside(entries: EntryStore, tree: Tree, onPath: Uint8Array): number[] {
  const beside = new Map<number, number[]>();
  const sameMessage = new Map<number, number[]>();
  // On the path, or replayed beside it as part of a message on the path.
  const reached = Uint8Array.from(onPath);
  for (let i = 0; i < entries.length; i++) {
    const parent = tree.parent[i]!;
    if (parent === -1 || onPath[i] === 1 || reached[parent] === 0) continue;
    const role = entries.roleCode(i);
    if (role === TOOL_RESULT && entries.hasCalls(parent)) {
      beside.set(parent, [...(beside.get(parent) ?? []), i]);
    } else if (role === ASSISTANT && entries.group(i) !== -1 && entries.group(i) === entries.group(parent)) {
      sameMessage.set(parent, [...(sameMessage.get(parent) ?? []), i]);
      reached[i] = 1;
    }
  }
  if (beside.size === 0 && sameMessage.size === 0) return tree.replayPath;
  const path: number[] = [];
  let waiting: number[] = [];
  const emit = (index: number): void => {
    path.push(index);
    waiting.push(...(beside.get(index) ?? []));
    for (const part of sameMessage.get(index) ?? []) emit(part);
  };
  tree.replayPath.forEach((index, i) => {
    emit(index);
    const next = tree.replayPath[i + 1];
    const group = entries.group(index);
    if (next !== undefined && group !== -1 && entries.group(next) === group) return;
    path.push(...waiting);
    waiting = [];
  });
  return path;
}

function positionsOf(indices: Int32Array, entries: number): Int32Array {
  const positions = new Int32Array(entries).fill(-1);
  indices.forEach((index, at) => (positions[index] = at));
  return positions;
}

function makePath(entries: EntryStore, path: readonly number[], scope: PathView['scope'], compact = true): PathView {
  const context = buildContext(entries, path, compact);
  let positions: Int32Array | Map<number, number> | undefined;
  const itemAt = (at: number): ContextItem => ({
    entry: context.at(at),
    messageIndex: context.messageIndex[at]!,
    blockIndex: context.blockIndex[at]!,
  });
  return {
    scope,
    context,
    pairing: analyzePairing({ store: entries, indices: context.indices, items: context }),
    itemAt,
    resultItem(slot) {
      const item = itemAt(slot.at);
      return { ...item, blockIndex: item.blockIndex + slot.k, result: item.entry.toolResults![slot.k]! };
    },
    itemOf(entry) {
      // A branch's short context gets a map; the replayed path, about as long as the file, an array.
      positions ??= context.length * 8 < entries.length ? new Map(Array.from(context.indices, (index, at) => [index, at])) : positionsOf(context.indices, entries.length);
      const at = positions instanceof Map ? positions.get(entry) : positions[entry];
      return at === undefined || at === -1 ? undefined : itemAt(at);
    },
  };
}
