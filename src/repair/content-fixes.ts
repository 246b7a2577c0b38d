import type { Analysis } from '../model/analysis.js';
import type { Entry } from '../model/entry.js';
import { flagMask } from '../model/entry-bits.js';
import type { EntryStore } from '../model/entry-store.js';
import { lineRefuses } from '../providers/choose.js';
import type { CallsByMessage } from './calls-by-message.js';
import type { EntryMarks } from './entry-marks.js';
import type { EntryEdit } from './plan.js';
import type { PlanBuilder } from './plan-builder.js';

// What the repair of the replayed path (replay.ts) mends inside entries it keeps: empty content
// and tool names on results. Pairs, order and links are replay.ts's.

const CONTENT_FLAGS = flagMask('emptyContent') | flagMask('blankText') | flagMask('resultsAfterOther');

/**
 * A result keeps the name of the call it answers; padding is trimmed. Never "unknown". Names are
 * read from the columns. For a provider that pairs by name (`matchCall`, Gemini) a result that
 * names another tool gets its call's name.
 */
export function fillToolNames(byAssistant: CallsByMessage, items: readonly Entry[], store: EntryStore, dropped: EntryMarks, builder: PlanBuilder, matchCall: boolean): void {
  for (const occurrences of byAssistant.values()) {
    for (const occurrence of occurrences) {
      if (occurrence.result === undefined) continue;
      const result = items[occurrence.result.at]!;
      const k = store.resultStart(result.index) + occurrence.result.k;
      if (store.resultNamePointer[k] === 0) continue;
      const code = store.resultName[k]!;
      const name = code === 0 ? undefined : store.strings.text(code - 1);
      const called = occurrence.call.name?.trim();
      const mismatched = matchCall && name !== undefined && name.trim() !== '' && called !== undefined && called !== '' && name.trim() !== called;
      if (dropped.has(result) || (!mismatched && name !== undefined && name.trim() !== '' && name.trim() === name)) continue;
      const fixed = !mismatched && name !== undefined && name.trim() !== '' ? name.trim() : called;
      if (!fixed) continue;
      builder.edit(result.line, { kind: 'set-tool-name', name: fixed });
      builder.count('rewrittenEntries');
    }
  }
}

/** Which empty content the file's reader refuses (see fixContent). */
export interface ContentRefused {
  blankText: boolean;
  blankUser: boolean;
  emptyFailedTurn: boolean;
}

/** A session's agent fixes empty content itself; a request line keeps what its provider takes (see lineRefuses). */
export function contentRefused(analysis: Analysis): ContentRefused {
  return {
    blankText: lineRefuses(analysis, 'empty-text-block') ?? true,
    blankUser: lineRefuses(analysis, 'blank-user-message') ?? true,
    emptyFailedTurn: lineRefuses(analysis, 'empty-error-turn') ?? true,
  };
}

/** On-disk fixes current OpenClaw applies: placeholder text for empty failed turns and blank user turns; empty text blocks go. */
export function fixContent(path: readonly Entry[], store: EntryStore, dropped: EntryMarks, builder: PlanBuilder, refused: ContentRefused): void {
  const blank = hasBlankText(store);
  for (const entry of path) {
    // Read from the columns first: almost every entry has nothing to fix.
    if ((store.info[entry.index]! & CONTENT_FLAGS) === 0 && (!blank || store.rare.get(entry.index)?.blankTextBlocks === undefined)) continue;
    if (dropped.has(entry)) continue;
    const edits: EntryEdit[] = [];
    if (entry.role === 'assistant' && entry.outcome === 'error' && entry.emptyContent) {
      if (refused.emptyFailedTurn) edits.push({ kind: 'fill-failed-turn' });
    } else if (entry.role === 'user' && entry.blankText) {
      if (refused.blankUser) edits.push({ kind: 'fill-blank-user' });
    } else {
      if (entry.resultsAfterOther) edits.push({ kind: 'results-first' });
      if (entry.blankTextBlocks !== undefined && refused.blankText) edits.push({ kind: 'drop-blocks', blocks: entry.blankTextBlocks.map(blockOf) });
    }
    for (const edit of edits) builder.edit(entry.line, edit);
    if (edits.length > 0) builder.count('rewrittenEntries');
  }
}

/** Read from the few entries with rare fields, not per entry of the path. */
export function hasBlankText(store: EntryStore): boolean {
  for (const rare of store.rare.values()) if (rare.blankTextBlocks !== undefined) return true;
  return false;
}

export function hasOddResultName(store: EntryStore): boolean {
  for (let k = 0; k < store.results; k++) if (store.resultNameOdd(k)) return true;
  return false;
}

/** A content block's index, from its pointer. */
export function blockOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}
