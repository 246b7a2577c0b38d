import type { Analysis, PathView } from '../model/analysis.js';
import type { EntryStore } from '../model/entry-store.js';
import { semanticsOf } from '../model/transcript.js';
import { isFailed, positionOf, type Entry, type ToolCallRef } from '../model/entry.js';
import { ASSISTANT, flagMask } from '../model/entry-bits.js';
import { orphanServerResults } from '../model/server-tools.js';
import type { CallOccurrence, OccurrenceIndex, ResultSlot } from '../model/occurrences.js';
import { analyzePairing, lastLines } from '../model/pairing.js';
import type { NewLine, RepairMode } from './plan.js';
import type { PlanBuilder } from './plan-builder.js';
import { relink } from './links.js';
import { enforcedTerm } from '../providers/choose.js';
import { reasoningIsItem } from '../providers/reasoning.js';
import { dropForeignReasoning } from './foreign-reasoning.js';
import { bridgesWanted, bridgeTurns } from './bridges.js';
import { trimFinalText } from './final-text.js';
import { renameReusedIds, trimCallNames } from './call-fixes.js';
import { EntryMarks } from './entry-marks.js';
import { renameForProvider } from './provider-ids.js';
import { CallsByMessage } from './calls-by-message.js';
import type { Node } from './path-node.js';
import { blockOf, contentRefused, fillToolNames, fixContent, hasBlankText, hasOddResultName } from './content-fixes.js';

/** The flags fixContent acts on (with blank text blocks, a rare field). */
const IN_CONTEXT = flagMask('inContext');

/**
 * Pair-atomic repair of the replayed path. Calls that cannot be answered (failed turns, partial
 * calls) go with every result that answers them; unanswered calls are dropped (discard) or get
 * an error result (synthetic); orphans and duplicates go, a real result beating a synthetic one;
 * results are put directly after their call in call order. The path is then re-chained so each
 * entry's parent is the one before it.
 */
export function repairReplayPath(analysis: Analysis, builder: PlanBuilder, mode: RepairMode, newId: (seed: string) => string): void {
  // One view per entry for the whole plan: the sets and maps below key by entry.
  const views = analysis.entries.toArray();
  repairPath(analysis, views, builder, mode, newId);
  // A sub-agent's conversation is its own: its calls are answered within it, in the same way.
  for (const agent of analysis.agents) repairPath(analysis, views, builder, mode, newId, agent);
}

/**
 * The repair of one conversation: the replayed path, or (with `agent`) a sub-agent's own, where
 * only what the pairing rules judge there is repaired; turn order, content and links are the
 * replayed path's business.
 */
function repairPath(analysis: Analysis, views: readonly Entry[], builder: PlanBuilder, mode: RepairMode, newId: (seed: string) => string, agent?: PathView): void {
  const store = analysis.entries;
  const path = agent === undefined ? mainPath(analysis, views) : Array.from(agent.context.indices, (index) => views[index]!);
  const items: Entry[] = [];
  const indices = new Int32Array(path.length);
  for (const entry of path) if (agent !== undefined || (store.info[entry.index]! & IN_CONTEXT) !== 0) indices[items.push(entry) - 1] = entry.index;
  const pairing = analyzePairing({ store, indices: indices.subarray(0, items.length), items }, (k) => store.callUsable(k));

  const dropped = new EntryMarks(store.length);
  const drop = (entry: Entry): void => {
    dropped.add(entry);
    builder.skip(entry.line);
  };
  // A result goes with its message when it is the message (pi) or the message's last block (Claude Code).
  const droppedBlocks = new Map<Entry, number[]>();
  const dropBlock = (entry: Entry, pointer: string): void => {
    if (dropped.has(entry)) return;
    let blocks = droppedBlocks.get(entry);
    if (blocks === undefined) droppedBlocks.set(entry, (blocks = []));
    blocks.push(blockOf(pointer));
    if (pointer === entry.pointer || blocks.length >= entry.blockCount) drop(entry);
    else builder.edit(entry.line, { kind: 'drop-blocks', blocks: [blocks.at(-1)!] });
  };
  const dropResult = (slot: ResultSlot, counter: 'droppedOrphans' | 'droppedDuplicates'): void => {
    builder.count(counter);
    dropBlock(items[slot.at]!, items[slot.at]!.toolResults![slot.k]!.pointer);
  };
  pairing.orphans.forEach((slot) => dropResult(slot, 'droppedOrphans'));
  pairing.failedTurnResults.forEach((slot) => dropResult(slot, 'droppedOrphans'));
  pairing.duplicates.forEach((slot) => dropResult(slot, 'droppedDuplicates'));
  for (const { entry, tool } of orphanServerResults((agent ?? analysis.replay).context)) {
    builder.count('droppedOrphans');
    dropBlock(entry, tool.pointer);
  }

  // Made when first needed: a path with nothing to fix (the check of a repaired output) never makes it.
  let callsOf: CallsByMessage | undefined;
  const byAssistant = (): CallsByMessage => (callsOf ??= new CallsByMessage(pairing.byNumber, items, store.length));
  // Unanswered calls by call row: one set serves the call loop (rows) and arranging (occurrences).
  const missing = new Set(pairing.missing.map((occurrence) => occurrence.row));
  // Results out of call order only need moving for agents whose providers care (not Claude Code's).
  const unplaced = new Set([...pairing.displaced, ...(semanticsOf(analysis.transcript).resultOrder ? pairing.outOfOrder : [])]);

  // By group handle: a group's id is never spelled out.
  const groups = new Map<number, Entry[]>();
  if (store.groupRef !== undefined) for (const entry of path) {
    const group = store.group(entry.index);
    if (group === -1) continue;
    const lines = groups.get(group);
    if (lines === undefined) groups.set(group, [entry]);
    else lines.push(entry);
  }

  const main = agent === undefined;
  const refused = main ? contentRefused(analysis) : { blankText: false, blankUser: false, emptyFailedTurn: false };
  // A line whose only content is blank text (Claude Code writes a block per line) goes whole.
  if (hasBlankText(store) && refused.blankText) for (const entry of path) {
    const blank = store.rare.get(entry.index)?.blankTextBlocks;
    if (blank !== undefined && entry.role !== 'user' && blank.length >= entry.blockCount && !dropped.has(entry)) {
      drop(entry);
      builder.count('droppedLines');
    }
  }

  const droppedCalls = new Set<ToolCallRef>();
  const itemReasoning = reasoningIsItem(analysis);
  // Asked once a turn: asked again for each of its lines, a turn written over n lines cost n² reads.
  const signedTurns = new Map<Entry[], boolean>();
  const signedTurn = (turn: Entry[]): boolean => {
    if (turn.length === 1) return turn[0]!.signedThinking;
    let signed = signedTurns.get(turn);
    if (signed === undefined) signedTurns.set(turn, (signed = turn.some((line) => line.signedThinking)));
    return signed;
  };
  // Which call blocks go, per assistant; a turn left with nothing (or with signed reasoning that an edit would invalidate) goes whole.
  for (const entry of path) {
    if (!store.hasCalls(entry.index) || store.roleCode(entry.index) !== ASSISTANT || dropped.has(entry)) continue;
    // A line whose id resolves to another entry (two share it) cannot be a parent: a result added after it would hang elsewhere.
    const owner = analysis.tree.byId.ofEntry(entry.index);
    const shadowed = owner !== undefined && owner !== entry.index;
    const failed = isFailed(entry);
    const dooms = (k: number) => failed || !store.callUsable(k) || ((mode === 'discard' || shadowed) && missing.has(k));
    // Judged by call row first: the calls are read only from a message that loses some.
    const first = store.callStart(entry.index);
    let some = false;
    for (let k = first, end = store.callEnd(entry.index); k < end && !some; k++) some = dooms(k);
    if (!some) continue;
    const occurrences = byAssistant().get(entry) ?? [];
    const doomed = entry.toolCalls!.filter((_call, n) => dooms(first + n));
    for (const call of doomed) droppedCalls.add(call);
    builder.count('droppedToolCalls', doomed.length);
    // Signed reasoning is checked against its whole message: such a turn goes with every line it was written over.
    // A reasoning item (Responses) is verified alone: a call beside it can go by itself.
    const turn = groups.get(store.group(entry.index)) ?? [entry];
    const signed = !itemReasoning && signedTurn(turn) && !isFailed(entry);
    if (signed || doomed.length === entry.blockCount) {
      dropLines(signed ? turn : [entry]);
      if (signed || turn.length === 1) builder.count('droppedAssistantMessages');
      // What is left of the response is only its reasoning, which says nothing alone: Claude Code drops
      // such a line when it resumes and answers the turn before it itself.
      else if (turn.every((line) => dropped.has(line) || line.reasoningOnly)) {
        dropLines(turn.filter((line) => !dropped.has(line)));
        builder.count('droppedAssistantMessages');
      }
    } else {
      builder.edit(entry.line, { kind: 'drop-blocks', blocks: doomed.map((call) => call.blockIndex) });
      const gone = new Set(doomed);
      byAssistant().set(entry, occurrences.filter((o) => !gone.has(o.call)));
    }
  }

  /** Drops assistant lines with the results that answered them. */
  function dropLines(lines: Entry[]): void {
    for (const line of lines) {
      drop(line);
      for (const occurrence of byAssistant().get(line) ?? []) {
        if (occurrence.result !== undefined && !dropped.has(items[occurrence.result.at]!)) dropResult(occurrence.result, 'droppedOrphans');
      }
      byAssistant().delete(line);
    }
  }

  if (main) dropForeignReasoning(analysis, views, groups, dropped, drop, dropLines, builder);

  // A line that loses every result but keeps other content is no longer a result: results after it move up past it.
  const leftovers = new Set([...droppedBlocks].filter(([entry, blocks]) => !dropped.has(entry) && blocks.length >= (entry.toolResults?.length ?? Infinity)).map(([entry]) => entry));
  if (leftovers.size > 0) {
    const lastLineOf = lastLines(items);
    // Leftovers before each position, so each call asks about the lines up to its result at once.
    const before = new Int32Array(items.length + 1);
    items.forEach((item, at) => (before[at + 1] = before[at]! + (leftovers.has(item) ? 1 : 0)));
    for (const occurrence of pairing.occurrences) {
      const result = occurrence.result;
      if (result === undefined) continue;
      const from = lastLineOf(occurrence.at) + 1;
      if (from < result.at && before[result.at]! > before[from]!) unplaced.add(occurrence);
    }
  }

  const goes = (o: CallOccurrence) => dropped.has(items[o.at]!) || droppedCalls.has(o.call);
  // Only a path that reuses a call id has one to rename for that; a provider's id shape may rename any.
  const renamed = pairing.duplicateCalls.length === 0 ? new Map<CallOccurrence, string>() : renameReusedIds(analysis, pairing.occurrences, items, goes, dropped, builder);
  renameForProvider(analysis, () => pairing.occurrences, items, goes, dropped, renamed, builder);
  trimCallNames(path, store, dropped, droppedCalls, builder);
  // With nothing dropped, unanswered, out of place or to bridge, the order stands and so does every link.
  const bridges = main && bridgesWanted(analysis);
  if (dropped.size > 0 || missing.size > 0 || unplaced.size > 0 || bridges) {
    const arranged = arrange(path, items, store, byAssistant(), pairing.byNumber, dropped, missing, unplaced, renamed, builder);
    const sequence = bridges ? bridgeTurns(analysis, arranged.sequence, arranged.moved, builder) : arranged.sequence;
    chain(sequence, arranged.moved, dropped, analysis, views, builder, newId);
  }
  const matchCall = enforcedTerm(analysis, 'tool-result-name-mismatch') !== undefined;
  if (matchCall || hasOddResultName(store)) fillToolNames(byAssistant(), items, store, dropped, builder, matchCall);
  if (!main) return;
  fixContent(path, store, dropped, builder, refused);
  trimFinalText(analysis, views, dropped, builder);
  keepCompactionCuts(path, store, dropped, builder);
  relinkChildrenOfDropped(analysis, views, dropped, builder);
}

/** The replayed path without the sub-agents' entries, which their own conversations repair. */
function mainPath(analysis: Analysis, views: readonly Entry[]): Entry[] {
  if (analysis.agents.length === 0) return analysis.replayed.map((index) => views[index]!);
  const theirs = new Uint8Array(views.length);
  for (const agent of analysis.agents) for (const index of agent.context.indices) theirs[index] = 1;
  return analysis.replayed.flatMap((index) => (theirs[index] === 1 ? [] : [views[index]!]));
}

/**
 * The repaired order of the path: each assistant message followed by its results in call order.
 * A message written over several lines (a group) gets its results after its last line.
 */
function arrange(
  path: readonly Entry[],
  items: readonly Entry[],
  store: EntryStore,
  byAssistant: CallsByMessage,
  numbered: OccurrenceIndex,
  dropped: EntryMarks,
  missing: Set<number>,
  unplaced: Set<CallOccurrence>,
  renamed: Map<CallOccurrence, string>,
  builder: PlanBuilder,
): { sequence: Node[]; moved: EntryMarks } {
  const sequence: Node[] = [];
  const moved = new EntryMarks(store.length);
  const kept = path.filter((entry) => !dropped.has(entry));
  // Results written before their call are passed over where they stand; they are put after the call.
  const early = new EntryMarks(store.length);
  for (const occurrence of unplaced) if (occurrence.result !== undefined && occurrence.result.at < occurrence.at) early.add(items[occurrence.result.at]!);
  // By number: a message's calls become objects only when its results are put in order.
  const unplacedNumbers = new Set([...unplaced].map((occurrence) => numbered.numberOf(occurrence)));
  const needsPlacing = (o: CallOccurrence | number): boolean =>
    typeof o === 'number' ? unplacedNumbers.has(o) || missing.has(numbered.rowOf(o)) : unplaced.has(o) || missing.has(o.row);
  let pending: Array<CallOccurrence | number> = [];
  kept.forEach((entry, i) => {
    if (moved.has(entry) || early.has(entry)) return;
    sequence.push({ entry });
    byAssistant.collect(entry, pending);
    const group = store.group(entry.index);
    if (group !== -1 && i + 1 < kept.length && store.group(kept[i + 1]!.index) === group) return;
    if (pending.length === 0) return;
    const calls = pending;
    pending = [];
    if (!calls.some(needsPlacing)) return;
    const occurrences = calls.map((o) => (typeof o === 'number' ? numbered.object(o) : o));
    // Every result of this message is rewritten right after it, so order and adjacency both hold.
    for (const occurrence of occurrences) {
      if (occurrence.result !== undefined) {
        const result = items[occurrence.result.at]!;
        if (moved.has(result)) continue;
        moved.add(result);
        builder.skip(result.line);
        builder.place(entry.line, { kind: 'move', line: result.line });
        if (unplaced.has(occurrence)) builder.count('movedResults');
        sequence.push({ entry: result });
      } else {
        const added: Extract<NewLine, { kind: 'missing-result' }> = {
          kind: 'missing-result',
          callId: renamed.get(occurrence) ?? occurrence.call.id!,
          toolName: occurrence.call.name?.trim(),
          timestampFrom: entry.line,
        };
        builder.place(entry.line, { kind: 'new', value: added });
        builder.count('addedResults');
        sequence.push({ added, after: entry });
      }
    }
  });
  return { sequence, moved };
}

/**
 * New results get fresh ids and the node before them as parent. An entry is re-linked to the node
 * before it only where the repair broke its link: its parent was dropped or moved, it was moved
 * itself, or its link would skip a node the repair chained in (an added result, or an entry
 * re-linked before it). Links the agent wrote on purpose (Claude Code's parallel results on their
 * own call lines) stay otherwise. Linear (v1) files need no links.
 */
function chain(
  sequence: readonly Node[],
  moved: EntryMarks,
  dropped: EntryMarks,
  analysis: Analysis,
  views: readonly Entry[],
  builder: PlanBuilder,
  newId: (seed: string) => string,
): void {
  const added = new Set<string>();
  const taken = (id: string) => analysis.tree.byId.has(id) || added.has(id);
  let previous: Node | undefined;
  const idOf = (node: Node | undefined) => (node === undefined ? null : 'added' in node ? node.added.id ?? null : node.entry.id ?? null);
  // Where each entry sits in the sequence, and the last place the repair chained a node in.
  const position = new Int32Array(analysis.entries.length).fill(-1);
  let chainedAt = -1;
  sequence.forEach((node, at) => {
    if ('added' in node) {
      const near = 'after' in node ? node.after : node.before;
      // Linear files without ids (pi v1) name entries by position; a line that has its own id needs one for what it adds.
      if (!near.linksToPrevious || (near.id !== undefined && positionOf(near.id) === undefined)) {
        const seed = 'before' in node ? `bridge:before:${near.line}` : node.added.kind === 'bridge' ? `bridge:${near.line}` : node.added.callId;
        node.added.id = fresh(seed, taken, newId);
        added.add(node.added.id);
        node.added.parentId = idOf(previous) ?? undefined;
        chainedAt = at;
      }
      previous = node;
      return;
    }
    const entry = node.entry;
    position[entry.index] = at;
    const parent = analysis.tree.parent[entry.index]!;
    const parentEntry = parent === -1 ? undefined : views[parent]!;
    const broken =
      moved.has(entry) ||
      (previous !== undefined && ('added' in previous || moved.has(previous.entry))) ||
      (parentEntry !== undefined && (dropped.has(parentEntry) || moved.has(parentEntry))) ||
      (parent !== -1 && position[parent] !== -1 && position[parent]! < chainedAt);
    // An entry never hangs on its own id (two entries sharing one, left for a person).
    const wanted = broken && !entry.linksToPrevious ? idOf(previous) : undefined;
    if (wanted !== undefined && wanted !== entry.id) {
      if (entry.parentId !== wanted) relink(entry, wanted, builder);
      chainedAt = at;
    }
    previous = node;
  });
}

function fresh(seed: string, taken: (id: string) => boolean, newId: (seed: string) => string): string {
  for (let n = 0; ; n++) {
    const id = newId(`${seed}#${n}`);
    if (!taken(id)) return id;
  }
}

/**
 * A compaction that kept history from a dropped entry keeps it from the next surviving one
 * instead; one whose kept history starts with tool results keeps it from their call.
 */
function keepCompactionCuts(path: readonly Entry[], store: EntryStore, dropped: EntryMarks, builder: PlanBuilder): void {
  // Where each id handle first stands on the path, found once: a long session holds hundreds of compactions.
  let firstAt: Int32Array | undefined;
  path.forEach((entry, at) => {
    const keptRef = entry.kind === 'compaction' ? store.rare.get(entry.index)?.firstKeptRef : undefined;
    if (keptRef === undefined) return;
    if (firstAt === undefined) {
      firstAt = new Int32Array(store.ids.count).fill(-1);
      path.forEach((candidate, i) => {
        const ref = store.idRef[candidate.index]!;
        if (ref !== -1 && firstAt![ref] === -1) firstAt![ref] = i;
      });
    }
    const first = firstAt[keptRef]!;
    const kept = first < at ? first : -1;
    if (kept === -1) return;
    if (dropped.has(path[kept]!)) {
      const next = path.slice(kept + 1, at).find((candidate) => !dropped.has(candidate) && candidate.role !== 'toolResult' && candidate.id !== undefined);
      if (next !== undefined) builder.edit(entry.line, { kind: 'set-first-kept', id: next.id! });
      return;
    }
    // A cut between a call and its results would replay the results without their call: it moves back to the call.
    let call = kept;
    while (call > 0 && path[call]!.role === 'toolResult') call -= 1;
    if (call < kept && path[call]!.toolCalls !== undefined && !dropped.has(path[call]!) && path[call]!.id !== undefined) {
      builder.edit(entry.line, { kind: 'set-first-kept', id: path[call]!.id! });
    }
  });
}

/** Entries off the path whose parent was dropped hang on the nearest surviving ancestor. */
function relinkChildrenOfDropped(analysis: Analysis, entries: readonly Entry[], dropped: EntryMarks, builder: PlanBuilder): void {
  if (dropped.size === 0) return;
  const { tree } = analysis;
  const onPath = new Uint8Array(entries.length);
  for (const index of analysis.replayed) onPath[index] = 1;
  for (const entry of entries) {
    const parent = tree.parent[entry.index]!;
    if (onPath[entry.index] === 1 || parent === -1 || !dropped.has(entries[parent]!) || entry.linksToPrevious) continue;
    let ancestor = parent;
    while (ancestor !== -1 && dropped.has(entries[ancestor]!)) ancestor = tree.parent[ancestor]!;
    relink(entry, ancestor === -1 ? null : entries[ancestor]!.id!, builder);
  }
}
