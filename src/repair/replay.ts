import { createHash } from 'node:crypto';
import type { Analysis } from '../model/analysis.js';
import { isFailed, type Entry, type ToolCallRef } from '../model/entry.js';
import { analyzePairing, resultAt, type CallOccurrence, type ResultSlot } from '../model/pairing.js';
import type { NewLine, RepairMode } from './plan.js';
import type { PlanBuilder } from './plan-builder.js';
import { relink } from './links.js';

/** A node of the repaired replay path: an entry of the file, or a result the repair adds. */
type Node = { entry: Entry } | { added: Extract<NewLine, { kind: 'missing-result' }>; after: Entry };

const usable = (call: ToolCallRef): boolean => call.id !== undefined && !call.partial && call.missing === undefined;

/**
 * Pair-atomic repair of the replayed path. Calls that cannot be answered (failed turns, partial
 * calls) go with every result that answers them; unanswered calls are dropped (discard) or get
 * an error result (synthetic); orphans and duplicates go, a real result beating a synthetic one;
 * results are put directly after their call in call order. The path is then re-chained so each
 * entry's parent is the one before it.
 */
export function repairReplayPath(analysis: Analysis, builder: PlanBuilder, mode: RepairMode): void {
  const { entries, tree } = analysis;
  const path = tree.replayPath.map((index) => entries[index]!);
  const items = path.filter((entry) => entry.inContext);
  const pairing = analyzePairing(items, (entry) => (entry.toolCalls ?? []).filter(usable));

  const dropped = new Set<Entry>();
  const drop = (entry: Entry): void => {
    dropped.add(entry);
    builder.skip(entry.line);
  };
  // Repair handles formats whose result messages hold one result each, so a result's message goes with it.
  const dropResult = ({ at }: ResultSlot, counter: 'droppedOrphans' | 'droppedDuplicates'): void => {
    drop(items[at]!);
    builder.count(counter);
  };
  pairing.orphans.forEach((slot) => dropResult(slot, 'droppedOrphans'));
  pairing.failedTurnResults.forEach((slot) => dropResult(slot, 'droppedOrphans'));
  pairing.duplicates.forEach((slot) => dropResult(slot, 'droppedDuplicates'));

  const byAssistant = new Map<Entry, CallOccurrence[]>();
  for (const occurrence of pairing.occurrences) {
    const assistant = items[occurrence.at]!;
    byAssistant.set(assistant, [...(byAssistant.get(assistant) ?? []), occurrence]);
  }
  const missing = new Set(pairing.missing);
  const unplaced = new Set([...pairing.displaced, ...pairing.outOfOrder]);

  // Which call blocks go, per assistant; a turn left with nothing (or with signed reasoning that an edit would invalidate) goes whole.
  for (const entry of path) {
    if (entry.role !== 'assistant' || entry.toolCalls === undefined || dropped.has(entry)) continue;
    const occurrences = byAssistant.get(entry) ?? [];
    const doomed = entry.toolCalls.filter(
      (call) => isFailed(entry) || !usable(call) || (mode === 'discard' && occurrences.some((o) => o.call === call && missing.has(o))),
    );
    if (doomed.length === 0) continue;
    builder.count('droppedToolCalls', doomed.length);
    if (doomed.length === entry.blockCount || (entry.signedThinking && !isFailed(entry))) {
      drop(entry);
      builder.count('droppedAssistantMessages');
      for (const occurrence of occurrences) {
        if (occurrence.result !== undefined && !dropped.has(items[occurrence.result.at]!)) dropResult(occurrence.result, 'droppedOrphans');
      }
      byAssistant.delete(entry);
    } else {
      builder.edit(entry.line, { kind: 'drop-blocks', blocks: doomed.map((call) => call.blockIndex) });
      byAssistant.set(entry, occurrences.filter((o) => !doomed.includes(o.call)));
    }
  }

  const sequence = arrange(path, items, byAssistant, dropped, missing, unplaced, builder);
  chain(sequence, analysis, builder);
  fillToolNames(byAssistant, items, dropped, builder);
  fixContent(path, dropped, builder);
  keepCompactionCuts(path, dropped, builder);
  relinkChildrenOfDropped(analysis, dropped, builder);
}

/** The repaired order of the path: each assistant followed by its results in call order. */
function arrange(
  path: readonly Entry[],
  items: readonly Entry[],
  byAssistant: Map<Entry, CallOccurrence[]>,
  dropped: Set<Entry>,
  missing: Set<CallOccurrence>,
  unplaced: Set<CallOccurrence>,
  builder: PlanBuilder,
): Node[] {
  const sequence: Node[] = [];
  const pulled = new Set<Entry>();
  for (const entry of path) {
    if (dropped.has(entry) || pulled.has(entry)) continue;
    sequence.push({ entry });
    const occurrences = byAssistant.get(entry);
    if (occurrences === undefined) continue;
    const rearrange = occurrences.some((o) => unplaced.has(o) || missing.has(o));
    if (!rearrange) continue;
    // Every result of this turn is rewritten right after it, so order and adjacency both hold.
    for (const occurrence of occurrences) {
      if (occurrence.result !== undefined) {
        const result = items[occurrence.result.at]!;
        pulled.add(result);
        builder.skip(result.line);
        builder.place(entry.line, { kind: 'move', line: result.line });
        if (unplaced.has(occurrence)) builder.count('movedResults');
        sequence.push({ entry: result });
      } else {
        const added: Extract<NewLine, { kind: 'missing-result' }> = {
          kind: 'missing-result',
          callId: occurrence.call.id!,
          toolName: occurrence.call.name?.trim(),
          timestampFrom: entry.line,
        };
        builder.place(entry.line, { kind: 'new', value: added });
        builder.count('addedResults');
        sequence.push({ added, after: entry });
      }
    }
  }
  return sequence;
}

/** Each node's parent becomes the node before it; new results get fresh ids. Linear (v1) files need no links. */
function chain(sequence: readonly Node[], analysis: Analysis, builder: PlanBuilder): void {
  const taken = new Set(analysis.tree.byId.keys());
  let previous: string | undefined;
  sequence.forEach((node, i) => {
    if ('added' in node) {
      if (!node.after.linksToPrevious) {
        node.added.id = freshId(node.added.callId, taken);
        node.added.parentId = previous;
      }
      previous = node.added.id;
      return;
    }
    const entry = node.entry;
    if (i > 0 && !entry.linksToPrevious && entry.parentId !== previous && previous !== undefined) relink(entry, previous, builder);
    previous = entry.id;
  });
}

function freshId(seed: string, taken: Set<string>): string {
  for (let n = 0; ; n++) {
    const id = createHash('sha256').update(`${seed}#${n}`).digest('hex').slice(0, 8);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** A result keeps the name of the call it answers; padding is trimmed. Never "unknown". */
function fillToolNames(byAssistant: Map<Entry, CallOccurrence[]>, items: readonly Entry[], dropped: Set<Entry>, builder: PlanBuilder): void {
  for (const occurrences of byAssistant.values()) {
    for (const occurrence of occurrences) {
      if (occurrence.result === undefined) continue;
      const result = items[occurrence.result.at]!;
      const name = resultAt(items, occurrence.result).name;
      if (dropped.has(result) || (name !== undefined && name.trim() !== '' && name.trim() === name)) continue;
      const fixed = name !== undefined && name.trim() !== '' ? name.trim() : occurrence.call.name?.trim();
      if (!fixed) continue;
      builder.edit(result.line, { kind: 'set-tool-name', name: fixed });
      builder.count('rewrittenEntries');
    }
  }
}

/** On-disk fixes current OpenClaw applies: placeholder text for empty failed turns and blank user turns; empty text blocks go. */
function fixContent(path: readonly Entry[], dropped: Set<Entry>, builder: PlanBuilder): void {
  for (const entry of path) {
    if (dropped.has(entry)) continue;
    if (entry.role === 'assistant' && entry.outcome === 'error' && entry.emptyContent) {
      builder.edit(entry.line, { kind: 'fill-failed-turn' });
      builder.count('rewrittenEntries');
    } else if (entry.role === 'user' && entry.blankText) {
      builder.edit(entry.line, { kind: 'fill-blank-user' });
      builder.count('rewrittenEntries');
    } else if (entry.blankTextBlocks !== undefined) {
      builder.edit(entry.line, { kind: 'drop-blocks', blocks: entry.blankTextBlocks.map(blockOf) });
      builder.count('rewrittenEntries');
    }
  }
}

function blockOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** A compaction that kept history from a dropped entry keeps it from the next surviving one instead. */
function keepCompactionCuts(path: readonly Entry[], dropped: Set<Entry>, builder: PlanBuilder): void {
  path.forEach((entry, at) => {
    if (entry.kind !== 'compaction' || entry.firstKeptId === undefined) return;
    const kept = path.findIndex((candidate, i) => i < at && candidate.id === entry.firstKeptId);
    if (kept === -1 || !dropped.has(path[kept]!)) return;
    const next = path.slice(kept + 1, at).find((candidate) => !dropped.has(candidate) && candidate.role !== 'toolResult' && candidate.id !== undefined);
    if (next !== undefined) builder.edit(entry.line, { kind: 'set-first-kept', id: next.id! });
  });
}

/** Entries off the path whose parent was dropped hang on the nearest surviving ancestor. */
function relinkChildrenOfDropped(analysis: Analysis, dropped: Set<Entry>, builder: PlanBuilder): void {
  if (dropped.size === 0) return;
  const { entries, tree } = analysis;
  const onPath = new Set(tree.replayPath);
  for (const entry of entries) {
    const parent = tree.parent[entry.index]!;
    if (onPath.has(entry.index) || parent === -1 || !dropped.has(entries[parent]!) || entry.linksToPrevious) continue;
    let ancestor = parent;
    while (ancestor !== -1 && dropped.has(entries[ancestor]!)) ancestor = tree.parent[ancestor]!;
    relink(entry, ancestor === -1 ? null : entries[ancestor]!.id!, builder);
  }
}
