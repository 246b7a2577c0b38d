import type { ToolResultRef } from './entry.js';
import { ASSISTANT, flagMask, TOOL_RESULT } from './entry-bits.js';
import type { EntryStore } from './entry-store.js';
import { buildContext, listContext, type Context, type ContextItem } from './context.js';
import type { ResultSlot } from './occurrences.js';
import { analyzePairing, type Pairing } from './pairing.js';
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
  /** `agent`: a sub-agent's own conversation (see Entry.agent), sent by that agent, judged as fully as the replayed path. */
  scope: 'replay' | 'agent' | Exclude<ReplayStatus, 'replayed'>;
  /** For an `agent` path: the sub-agent it is the conversation of. */
  agent?: string;
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
  /** Each sub-agent's own conversation, in the order the agents first appear (see Entry.agent). */
  agents: PathView[];
  /** The replayed path first, then each sub-agent's conversation, then the replayed path as if never compacted, then each abandoned branch. */
  paths: PathView[];
  status(entry: number): ReplayStatus;
  /**
   * The provider the rules judge this analysis against, once providers/choose.ts has chosen it:
   * kept on the analysis, as a WeakMap entry per analysis cost a microsecond a line of a dataset.
   */
  providerChoice: unknown;
}

const IN_CONTEXT = flagMask('inContext');

/**
 * Abandoned branches are judged with this much shared history before their fork point: the point
 * where they meet the replayed path or a branch judged before them (see abandonedPaths).
 */
const BRANCH_LOOKBACK = 500;

/** `tree`: the transcript's tree as it stands, when the caller has just built it. */
export function analyze(transcript: Transcript, tree?: Tree): Analysis {
  const entries = transcript.entries;
  const semantics = semanticsOf(transcript);
  tree ??= buildTree(entries, semantics.duplicateIds, semantics.bridgesUnknownParents === true, undefined, semantics.resumesPastCopies === true);
  const onPath = new Uint8Array(entries.length);
  for (const index of tree.replayPath) onPath[index] = 1;
  const replayed = semantics.resultsBesidePath ? withResultsBeside(entries, tree, onPath) : tree.replayPath;
  const replay = makePath(entries, replayed, 'replay');
  const sent = new Uint8Array(entries.length);
  for (const index of replay.context.indices) sent[index] = 1;
  return new TreeAnalysis(transcript, tree, replay, replayed, onPath, sent, semantics.resultsBesidePath === true);
}

/**
 * An analysis whose other paths are made when first asked for: planning a repair reads only the
 * replayed path and the sub-agents' conversations. A class, not an object literal with a getter:
 * V8 gives each such literal a hidden class of its own, held in old space, and that keeps the
 * getter's closure, and with it the whole model, alive past every young collection (a file of
 * conversations analyses a line at a time).
 */
class TreeAnalysis implements Analysis {
  readonly entries: EntryStore;
  private allPaths: PathView[] | undefined;
  private agentPaths: PathView[] | undefined;
  providerChoice: unknown = undefined;

  constructor(
    readonly transcript: Transcript,
    readonly tree: Tree,
    readonly replay: PathView,
    readonly replayed: readonly number[],
    private readonly onPath: Uint8Array,
    private readonly sent: Uint8Array,
    /** The format replays results and response lines beside the path they hang off (see withResultsBeside). */
    private readonly resultsBeside: boolean,
  ) {
    this.entries = transcript.entries;
  }

  get agents(): PathView[] {
    return (this.agentPaths ??= agentConversations(this.entries));
  }

  get paths(): PathView[] {
    if (this.allPaths !== undefined) return this.allPaths;
    const { entries, tree, replayed } = this;
    const paths = (this.allPaths = [this.replay, ...this.agents]);
    if (tree.replayPath.some((index) => entries.kind(index) === 'compaction')) {
      paths.push(makePath(entries, replayed, 'compacted', false));
    }
    let children: BesideChildren | undefined;
    for (const path of abandonedPaths(entries, tree, this.onPath)) {
      // A branch is replayed, had it been resumed, with what hangs beside it, as the path is: else its parallel calls' results look missing.
      const own = new Set(path);
      const judged = this.resultsBeside ? withBeside(entries, path, (children ??= besideAll(entries, tree)), (index) => own.has(index)) : path;
      paths.push(makePath(entries, judged, 'abandoned'));
    }
    return paths;
  }

  status(entry: number): ReplayStatus {
    if (this.sent[entry] === 1) return 'replayed';
    if (this.onPath[entry] === 0) return 'abandoned';
    return (this.entries.info[entry]! & IN_CONTEXT) !== 0 ? 'compacted' : 'replayed';
  }
}

/**
 * The path of each abandoned branch, in the order of their leaves. A branch's path is its own
 * entries and BRANCH_LOOKBACK more from where it meets the replayed path or a branch judged before
 * it, so a tree with a fork at every turn costs its size, not its size times its depth. Branches
 * are walked from the last leaf back, so the branch written last (most often the long one) is
 * judged whole first and the forks off it meet it near their fork point. A branch whose own
 * entries hold no call and no result, meeting an earlier branch at an entry that neither calls nor
 * answers, has nothing to pair that the earlier one did not pair: it makes no path.
 */
function abandonedPaths(entries: EntryStore, tree: Tree, onPath: Uint8Array): number[][] {
  const paths: number[][] = [];
  // Made for the first branch: most files, and every request line, have none.
  let walker: PathWalker | undefined;
  let judged: Uint8Array | undefined;
  const pairs = (index: number) => entries.hasCalls(index) || entries.hasResults(index);
  // A cut never opens between a message's lines, nor between a call and its results: those would be judged as orphans.
  const insideMessage = (index: number) => {
    const parent = tree.parent[index]!;
    if (parent === -1) return false;
    if (entries.roleCode(index) === TOOL_RESULT) return true;
    const group = entries.group(index);
    return group !== -1 && entries.group(parent) === group;
  };
  for (let n = tree.leaves.length - 1; n >= 0; n--) {
    const leaf = tree.leaves[n]!;
    if (leaf === tree.leaf) continue;
    walker ??= new PathWalker(tree.parent);
    judged ??= Uint8Array.from(onPath);
    const path = walker.path(leaf, judged, BRANCH_LOOKBACK, insideMessage);
    let meets = path.length - 1;
    let ownPairs = false;
    for (; meets >= 0 && judged[path[meets]!] === 0; meets--) {
      ownPairs ||= pairs(path[meets]!);
      judged[path[meets]!] = 1;
    }
    if (ownPairs || meets < 0 || onPath[path[meets]!] === 1 || pairs(path[meets]!)) paths.push(path);
  }
  return paths.reverse();
}

/**
 * For agents that hang each parallel result on its own call line (Claude Code), what sits beside
 * the path is replayed too: the other lines of a response on the path (lines of one message id,
 * each a child of the line before it or of the first, which the agent merges into one message),
 * and the results that hang off any of them, after that message and before the path goes on.
 */
function withResultsBeside(entries: EntryStore, tree: Tree, onPath: Uint8Array): number[] {
  const children = besidePath(entries, tree, onPath);
  if (children === undefined) return tree.replayPath;
  return withBeside(entries, tree.replayPath, children, (index) => onPath[index] === 1);
}

/** Lines such a format takes in after their parent: results hanging off a call line, and the next lines of one response. */
interface BesideChildren {
  results(parent: number): readonly number[] | undefined;
  parts(parent: number): readonly number[] | undefined;
}

/** The lines beside the replayed path (its own lines, and what hangs off a line reached so), in maps: a path reaches few. */
function besidePath(entries: EntryStore, tree: Tree, onPath: Uint8Array): BesideChildren | undefined {
  const results = new Map<number, number[]>();
  const parts = new Map<number, number[]>();
  const reached = Uint8Array.from(onPath);
  for (let i = 0; i < entries.length; i++) {
    const parent = tree.parent[i]!;
    if (parent === -1 || onPath[i] === 1 || reached[parent] === 0) continue;
    if (isBesideResult(entries, parent, i)) pushAt(results, parent, i);
    else if (isBesidePart(entries, parent, i)) {
      pushAt(parts, parent, i);
      reached[i] = 1;
    }
  }
  return results.size === 0 && parts.size === 0 ? undefined : { results: (index) => results.get(index), parts: (index) => parts.get(index) };
}

/**
 * Every line's beside children, for the abandoned branches, which may hang anywhere: each
 * line's children listed once in two typed arrays (offsets and indices) and picked when asked.
 * A map of arrays over every parent took 40 MB on 1 GiB of Claude Code.
 */
function besideAll(entries: EntryStore, tree: Tree): BesideChildren {
  const { parent } = tree;
  const starts = new Int32Array(entries.length + 1);
  for (let i = 0; i < entries.length; i++) if (parent[i] !== -1) starts[parent[i]! + 1]!++;
  for (let i = 0; i < entries.length; i++) starts[i + 1]! += starts[i]!;
  const children = new Int32Array(starts[entries.length]!);
  const filled = starts.slice(0, entries.length);
  for (let i = 0; i < entries.length; i++) if (parent[i] !== -1) children[filled[parent[i]!]!++] = i;
  const pick = (index: number, beside: (entries: EntryStore, parent: number, child: number) => boolean): number[] | undefined => {
    let found: number[] | undefined;
    for (let k = starts[index]!; k < starts[index + 1]!; k++) if (beside(entries, index, children[k]!)) (found ??= []).push(children[k]!);
    return found;
  };
  return { results: (index) => pick(index, isBesideResult), parts: (index) => pick(index, isBesidePart) };
}

function isBesideResult(entries: EntryStore, parent: number, child: number): boolean {
  return entries.roleCode(child) === TOOL_RESULT && entries.hasCalls(parent);
}

function isBesidePart(entries: EntryStore, parent: number, child: number): boolean {
  return entries.roleCode(child) === ASSISTANT && entries.group(child) !== -1 && entries.group(child) === entries.group(parent);
}

/** A path with what sits beside it: a response's other lines after it, and the results off any of them after the whole response, before the path goes on. */
function withBeside(entries: EntryStore, path: readonly number[], children: BesideChildren, own: (index: number) => boolean): number[] {
  const out: number[] = [];
  let waiting: number[] = [];
  const emit = (index: number): void => {
    out.push(index);
    for (const result of children.results(index) ?? []) if (!own(result)) waiting.push(result);
    for (const part of children.parts(index) ?? []) if (!own(part)) emit(part);
  };
  path.forEach((index, i) => {
    emit(index);
    const next = path[i + 1];
    const group = entries.group(index);
    if (next !== undefined && group !== -1 && entries.group(next) === group) return;
    for (const result of waiting) out.push(result);
    waiting = [];
  });
  return out;
}

/** Adds to the list under a key: copying the list per addition costs n² on a message of n lines. */
function pushAt(lists: Map<number, number[]>, key: number, value: number): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [value]);
  else list.push(value);
}

/**
 * Each sub-agent's entries in file order, as the conversation that agent sends: found in the rare
 * fields, so a file without sub-agents pays one look over them. The main agent's path never holds
 * them (they are not in its context), and they are not sent compacted or branched.
 */
function agentConversations(entries: EntryStore): PathView[] {
  const byAgent = new Map<string, number[]>();
  for (const [index, rare] of entries.rare) {
    if (rare.agent === undefined) continue;
    const list = byAgent.get(rare.agent);
    if (list === undefined) byAgent.set(rare.agent, [index]);
    else list.push(index);
  }
  const views: PathView[] = [];
  for (const [agent, indices] of byAgent) {
    indices.sort((a, b) => a - b);
    views.push({ ...makePath(entries, indices, 'agent', false, listContext(entries, indices)), agent });
  }
  return views.sort((a, b) => a.context.indices[0]! - b.context.indices[0]!);
}

function positionsOf(indices: Int32Array, entries: number): Int32Array {
  const positions = new Int32Array(entries).fill(-1);
  indices.forEach((index, at) => (positions[index] = at));
  return positions;
}

function makePath(entries: EntryStore, path: readonly number[], scope: PathView['scope'], compact = true, context = buildContext(entries, path, compact)): PathView {
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
