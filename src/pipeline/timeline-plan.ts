import type { Analysis } from '../model/analysis.js';
import type { EntryStore } from '../model/entry-store.js';
import type { LineIssue } from '../model/transcript.js';
import { isNode } from '../model/tree.js';
import { MAX_PINNED_LINES, NEIGHBOURS, SMALL_FILE_ENTRIES, type Timeline, type TimelineFold, type TimelineGap, type TimelineItem, type TimelineTurn, type TurnRole } from './timeline.js';

/** A turn whose words are still to be read back from the file. */
export interface TurnRead {
  turn: TimelineTurn;
  offset: number;
  length: number;
}

export interface TimelinePlan {
  timeline: Timeline;
  reads: TurnRead[];
}

/**
 * A track is a list of nodes, each a number, so a path of millions of entries costs no object per
 * entry: n ≥ 0 is entry n, n < 0 is `specials[-n - 1]` (a folded region, or a finding's line that
 * holds no placed entry).
 */
interface Track {
  nodes: number[];
  shown: Uint8Array;
  /** The fold this track hangs from, in its parent track. */
  parent?: { track: Track; at: number };
}

type Special = { fold: Fold } | { turn: TimelineTurn };

interface Fold {
  kind: TimelineFold['kind'];
  track: Track;
  entries: number;
  fromLine: number;
  toLine: number;
  forkLine?: number;
}

const NAME_CHARS = 64;
/** Entries that are not turns of the conversation: drawn beside the neighbours of a finding, not counted as them. */
const BOOKKEEPING = new Set(['state', 'header']);
/** Nodes walked on each side of a finding at most, bookkeeping included. */
const MAX_WALK = 4 * NEIGHBOURS;

/**
 * Lays the file out as the replay sees it and keeps, turn by turn, only what lies around the
 * finding lines (all of a small file); the rest becomes counted gaps. Reads nothing: the turns
 * whose words are wanted come back as byte ranges to read.
 */
export function planTimeline(analysis: Analysis, findingLines: readonly number[], lineIssues: readonly LineIssue[] = []): TimelinePlan {
  return new Layout(analysis).plan(findingLines, lineIssues);
}

class Layout {
  private readonly entries: EntryStore;
  private readonly specials: Special[] = [];
  private readonly onMain: Uint8Array;

  constructor(private readonly analysis: Analysis) {
    this.entries = analysis.entries;
    this.onMain = new Uint8Array(this.entries.length);
    for (const index of analysis.replayed) this.onMain[index] = 1;
  }

  plan(findingLines: readonly number[], lineIssues: readonly LineIssue[]): TimelinePlan {
    const { entries, analysis, onMain } = this;
    const forks = new Map<number, number[]>();
    const outside: number[] = [];
    let abandoned = 0;
    for (const [root, members] of branches(entries, analysis.tree.parent, onMain)) {
      const fork = analysis.tree.parent[root]!;
      const attached = fork !== -1 && onMain[fork] === 1;
      const node = this.fold(attached ? 'abandoned' : 'detached', members);
      abandoned += members.length;
      if (attached) {
        this.foldAt(node).forkLine = entries.line(fork);
        const list = forks.get(fork);
        if (list === undefined) forks.set(fork, [node]);
        else list.push(node);
      } else {
        outside.push(node);
      }
    }

    const main: number[] = [];
    let run: number[] | undefined;
    let replayed = 0;
    let compacted = 0;
    for (const index of analysis.replayed) {
      let target = main;
      if (analysis.status(index) === 'compacted') {
        compacted += 1;
        target = run ??= [];
      } else {
        replayed += 1;
        if (run !== undefined) main.push(this.fold('compacted', run));
        run = undefined;
      }
      target.push(index);
      for (const node of forks.get(index) ?? []) target.push(node);
    }
    if (run !== undefined) main.push(this.fold('compacted', run));

    const pinned = [...new Set(findingLines)].sort((a, b) => a - b).slice(0, MAX_PINNED_LINES);
    for (const line of pinned) {
      const onLine = entriesOn(entries, line);
      if (onLine.some((entry) => isNode(entries, entry) || onMain[entry] === 1)) continue;
      // A header, a line of no known type, or a line that did not parse: shown where the file has it.
      outside.push(onLine.length > 0 ? onLine[0]! : this.special({ turn: unreadable(line, lineIssues) }));
    }

    const root = this.track(this.mergeByLine(main, outside));
    if (entries.length <= SMALL_FILE_ENTRIES) this.showAll(root);
    else this.pin(root, pinned);
    const reads: TurnRead[] = [];
    return { timeline: { items: this.emit(root, reads), counts: { replayed, compacted, abandoned } }, reads };
  }

  private special(special: Special): number {
    return -this.specials.push(special);
  }

  private foldAt(node: number): Fold {
    return (this.specials[-node - 1] as { fold: Fold }).fold;
  }

  /** A folded region of these nodes; its track is made (and linked to its parent) when the tracks are. */
  private fold(kind: Fold['kind'], nodes: number[]): number {
    let fromLine = Number.POSITIVE_INFINITY;
    let toLine = 0;
    let count = 0;
    for (const node of nodes) {
      const [from, to, size] = node >= 0 ? [this.entries.line(node), this.entries.line(node), 1] : [this.foldAt(node).fromLine, this.foldAt(node).toLine, this.foldAt(node).entries];
      count += size;
      fromLine = Math.min(fromLine, from);
      toLine = Math.max(toLine, to);
    }
    return this.special({ fold: { kind, track: { nodes, shown: new Uint8Array(0) }, entries: count, fromLine, toLine } });
  }

  private lineOf(node: number): number {
    if (node >= 0) return this.entries.line(node);
    const special = this.specials[-node - 1]!;
    return 'fold' in special ? special.fold.fromLine : special.turn.line;
  }

  /** Places each outside node before the first path node written after it. */
  private mergeByLine(main: number[], outside: number[]): number[] {
    if (outside.length === 0) return main;
    const sorted = outside.map((node) => ({ node, line: this.lineOf(node) })).sort((a, b) => a.line - b.line);
    const merged: number[] = [];
    let next = 0;
    for (const node of main) {
      const line = this.lineOf(node);
      while (next < sorted.length && sorted[next]!.line < line) merged.push(sorted[next++]!.node);
      merged.push(node);
    }
    while (next < sorted.length) merged.push(sorted[next++]!.node);
    return merged;
  }

  /** The track of these nodes, with the tracks of the folds inside it linked to it. */
  private track(nodes: number[], parent?: Track['parent']): Track {
    const built: Track = { nodes, shown: new Uint8Array(nodes.length), parent };
    nodes.forEach((node, at) => {
      if (node < 0 && 'fold' in this.specials[-node - 1]!) {
        const fold = this.foldAt(node);
        fold.track = this.track(fold.track.nodes, { track: built, at });
      }
    });
    return built;
  }

  private showAll(track: Track): void {
    track.shown.fill(1);
    for (const node of track.nodes) if (node < 0 && 'fold' in this.specials[-node - 1]!) this.showAll(this.foldAt(node).track);
  }

  /** Marks each finding line's turn, its neighbours on its track, and the folds around it, to be shown. */
  private pin(root: Track, lines: readonly number[]): void {
    if (lines.length === 0) return;
    const wanted = new Set(lines);
    const visit = (track: Track): void => {
      track.nodes.forEach((node, at) => {
        if (node < 0 && 'fold' in this.specials[-node - 1]!) {
          visit(this.foldAt(node).track);
          return;
        }
        const line = this.lineOf(node);
        if (!wanted.has(line)) return;
        // Glued records share a line: the first one laid out carries its findings.
        wanted.delete(line);
        track.shown[at] = 1;
        this.showAround(track, at, -1);
        this.showAround(track, at, 1);
        for (let up = track.parent; up !== undefined; up = up.track.parent) up.track.shown[up.at] = 1;
      });
    };
    visit(root);
  }

  /** NEIGHBOURS turns on one side; bookkeeping between them (model changes, labels) is shown without counting, up to a bound. */
  private showAround(track: Track, from: number, step: 1 | -1): void {
    let turns = 0;
    for (let at = from + step, walked = 0; at >= 0 && at < track.nodes.length && turns < NEIGHBOURS && walked < MAX_WALK; at += step, walked++) {
      track.shown[at] = 1;
      const node = track.nodes[at]!;
      if (node < 0 || !BOOKKEEPING.has(this.entries.kind(node))) turns += 1;
    }
  }

  /** The shown nodes as items, and every run of hidden ones as one counted gap. */
  private emit(track: Track, reads: TurnRead[]): TimelineItem[] {
    const items: TimelineItem[] = [];
    let gap: TimelineGap | undefined;
    track.nodes.forEach((node, at) => {
      const special = node < 0 ? this.specials[-node - 1]! : undefined;
      if (track.shown[at] === 0) {
        gap ??= { type: 'gap', turns: 0, fromLine: Number.POSITIVE_INFINITY, toLine: 0, folds: 0, foldedEntries: 0 };
        if (special !== undefined && 'fold' in special) {
          gap.folds += 1;
          gap.foldedEntries += special.fold.entries;
        } else {
          gap.turns += 1;
        }
        gap.fromLine = Math.min(gap.fromLine, this.lineOf(node));
        gap.toLine = Math.max(gap.toLine, special !== undefined && 'fold' in special ? special.fold.toLine : this.lineOf(node));
        return;
      }
      if (gap !== undefined) items.push(gap);
      gap = undefined;
      if (special === undefined) items.push(turnOf(this.entries, node, reads));
      else if ('turn' in special) items.push(special.turn);
      else {
        const { kind, entries, fromLine, toLine, forkLine } = special.fold;
        items.push({ type: 'fold', kind, entries, fromLine, toLine, ...(forkLine !== undefined ? { forkLine } : {}), items: this.emit(special.fold.track, reads) });
      }
    });
    if (gap !== undefined) items.push(gap);
    return items;
  }
}

/** Off-path tree entries grouped by the first of them below the path (or with no parent), in file order. */
function branches(entries: EntryStore, parent: Int32Array, onMain: Uint8Array): Map<number, number[]> {
  const rootOf = new Int32Array(entries.length).fill(-1);
  const seen = new Int32Array(entries.length);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < entries.length; i++) {
    if (onMain[i] === 1 || !isNode(entries, i)) continue;
    if (rootOf[i] === -1) {
      const chain: number[] = [];
      let at = i;
      let root = -1;
      // Stamped per walk: a cycle of lost entries ends the walk where it closes.
      while (root === -1) {
        if (rootOf[at] !== -1) {
          root = rootOf[at]!;
          break;
        }
        chain.push(at);
        seen[at] = i + 1;
        const up = parent[at]!;
        if (up === -1 || onMain[up] === 1 || seen[up] === i + 1) root = at;
        else at = up;
      }
      for (const member of chain) rootOf[member] = root;
    }
    const group = groups.get(rootOf[i]!);
    if (group === undefined) groups.set(rootOf[i]!, [i]);
    else group.push(i);
  }
  return groups;
}

/** Entries decoded from one line (several when records were glued together). */
function entriesOn(entries: EntryStore, line: number): number[] {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries.line(middle) < line) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let i = low; i < entries.length && entries.line(i) === line; i++) found.push(i);
  return found;
}

function unreadable(line: number, issues: readonly LineIssue[]): TimelineTurn {
  const issue = issues.find((candidate) => candidate.line === line);
  return { type: 'turn', line, role: 'line', bytes: 0, note: issue?.detail ?? 'no entry was read from this line' };
}

const MESSAGE_ROLES: Record<string, TurnRole> = { user: 'user', assistant: 'assistant', toolResult: 'tool', other: 'other' };
/** Outcomes not worth a word: the turn ended as turns do. */
const PLAIN_OUTCOMES = new Set(['complete', 'toolUse']);

function cut(text: string | undefined): string | undefined {
  return text === undefined || text.length <= NAME_CHARS ? text : `${text.slice(0, NAME_CHARS)}…`;
}

function turnOf(entries: EntryStore, index: number, reads: TurnRead[]): TimelineTurn {
  const entry = entries.at(index);
  const kind = entry.kind;
  const turn: TimelineTurn = {
    type: 'turn',
    line: entry.line,
    role: kind === 'message' ? (MESSAGE_ROLES[entry.role ?? ''] ?? 'unknown') : kind,
    bytes: entry.byteLength,
  };
  if (entry.role === 'assistant' && entry.outcome !== undefined && !PLAIN_OUTCOMES.has(entry.outcome)) turn.outcome = entry.outcome;
  const calls = entry.toolCalls;
  if (calls !== undefined && calls.length > 0) turn.calls = calls.map((call) => ({ ...optional('name', cut(call.name)), ...optional('id', cut(call.id)) }));
  const results = entry.toolResults;
  if (results !== undefined && results.length > 0) turn.results = results.map((result) => ({ ...optional('callId', cut(result.callId)), ...optional('name', cut(result.name)) }));
  reads.push({ turn, offset: entry.offset, length: entry.byteLength });
  return turn;
}

/** A field only when it has a value: a timeline crosses threads and is compared in tests as plain data. */
function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
