import type { Analysis } from '../model/analysis.js';
import { ASSISTANT, flagMask, USER } from '../model/entry-bits.js';
import type { SlimPart, SlimView } from '../formats/slim-view.js';
import type { EntryEdit } from '../model/edits.js';
import type { PlanBuilder } from '../repair/plan-builder.js';
import type { Budget } from './budget.js';
import type { SlimLimits } from './limits.js';
import type { RequestSize, SizeKind } from '../model/size/request-size.js';
import { entrySize } from '../model/size/facts.js';
import type { ReadLine } from './compaction/lines.js';
import type { GivenSummary } from './options.js';
import { STRATEGIES, type StrategyId, type StrategyResult } from './report.js';

const SIGNED_THINKING = flagMask('signedThinking');

/** One replayed line slim read, with the parts its format shows. */
export interface SlimLine {
  /** Position on the replayed path, entry index and line number. */
  at: number;
  entry: number;
  line: number;
  parts: SlimPart[];
}

/** What a call's result stub names. */
export interface CallFacts {
  name?: string;
  target?: string;
}

/**
 * A session as the strategies see it: the replayed path's positions, where the protected turns
 * start, the lines read for their parts, the plan so far and the budget. Strategies edit through
 * it, so the first edit point (which decides the thinking that must go) is kept in one place.
 */
export class SlimSession {
  /** Replay position of each entry, -1 off the path. */
  readonly position: Int32Array;
  /** Position of the last user prompt (its turn is the latest), and of the first of the protected turns. */
  readonly lastPrompt: number;
  readonly protectedFrom: number;
  /** The earliest position an edit touches; Infinity before the first. */
  firstEdit = Infinity;
  private readonly byStrategy = new Map<StrategyId, StrategyResult>();
  /** Bytes the edits so far take out of each line. */
  readonly savedOnLine = new Map<number, number>();
  /** The entry of each call id on the path, made at the first callFacts. */
  private callEntries: Map<string, number> | undefined;
  /** A summary given for a compaction from its position (SlimOptions.summary). */
  givenSummary?: GivenSummary;
  /** The position a compaction keeps history from, once one is planned. */
  compactedFrom?: number;

  constructor(
    readonly analysis: Analysis,
    readonly view: SlimView,
    readonly size: RequestSize,
    readonly limits: SlimLimits,
    readonly budget: Budget,
    readonly builder: PlanBuilder,
    keepTurns: number,
    /** The parsed line of an entry, read again from the file. */
    readonly readLine: ReadLine,
    /** The time a new record takes when the entry it follows has none: the source file's mtime. */
    readonly fallbackTime: Date,
  ) {
    const { entries } = analysis;
    const indices = analysis.replay.context.indices;
    this.position = new Int32Array(entries.length).fill(-1);
    const prompts: number[] = [];
    for (let at = 0; at < indices.length; at++) {
      const index = indices[at]!;
      this.position[index] = at;
      if (entries.roleCode(index) === USER && !entries.hasResults(index) && entries.kind(index) === 'message') prompts.push(at);
    }
    this.lastPrompt = prompts.length === 0 ? indices.length : prompts.at(-1)!;
    this.protectedFrom = keepTurns === 0 ? indices.length : prompts.length === 0 ? indices.length : (prompts[Math.max(0, prompts.length - keepTurns)] ?? 0);
  }

  get length(): number {
    return this.analysis.replay.context.indices.length;
  }

  entryAt(at: number): number {
    return this.analysis.replay.context.indices[at]!;
  }

  /** Whether a signed thinking block is sent after this position (in the latest turn nothing may be dropped to make room for an edit). */
  thinkingAfter(at: number): boolean {
    const { entries } = this.analysis;
    for (let next = at + 1; next < this.length; next++) if ((entries.info[this.entryAt(next)]! & SIGNED_THINKING) !== 0) return true;
    return false;
  }

  /**
   * The lines from `from` up to (not including) `to` that `wanted` picks, read and shown as parts,
   * in replay order. Read as the caller goes: a strategy that fits early reads no further.
   */
  *lines(from: number, to: number, wanted: (entry: number) => boolean): Generator<SlimLine> {
    const { entries } = this.analysis;
    let lastLine = -1;
    for (let at = from; at < Math.min(to, this.length); at++) {
      const entry = this.entryAt(at);
      const line = entries.line(entry);
      // Entries that share a line (a document, a history kept in one record) are one line's parts.
      if (line === lastLine || !wanted(entry)) continue;
      lastLine = line;
      const parts = this.view.parts(this.readLine(entry, this.view.unread));
      if (parts.length > 0) yield { at, entry, line, parts };
    }
  }

  /** What the stub of an old result names of its call (the tool, and the path or command it ran on), read from the call's line. */
  callFacts(callId: string): CallFacts | undefined {
    if (this.callEntries === undefined) {
      const { entries } = this.analysis;
      this.callEntries = new Map();
      for (let at = 0; at < this.protectedFrom; at++) {
        const entry = this.entryAt(at);
        if (!entries.hasCalls(entry)) continue;
        for (let k = entries.callStart(entry); k < entries.callEnd(entry); k++) {
          const id = entries.call(k).id;
          if (id !== undefined) this.callEntries.set(id, entry);
        }
      }
    }
    const entry = this.callEntries.get(callId);
    if (entry === undefined) return undefined;
    for (const part of this.view.parts(this.readLine(entry, this.view.unread))) if (part.kind === 'call' && part.callId === callId) return { name: part.name, target: part.target };
    return undefined;
  }

  isAssistant(entry: number): boolean {
    return this.analysis.entries.roleCode(entry) === ASSISTANT;
  }

  hasSignedThinking(entry: number): boolean {
    return (this.analysis.entries.info[entry]! & SIGNED_THINKING) !== 0;
  }

  /** Bytes of a kind the entry sends, as its decoder noted them (see model/size/facts.ts). */
  bytesOf(entry: number, kind: SizeKind): number {
    return entrySize(this.analysis.entries, entry).parts[kind] ?? 0;
  }

  /** What a strategy did so far (made at its first change). */
  private result(strategy: StrategyId): StrategyResult {
    let result = this.byStrategy.get(strategy);
    if (result === undefined) this.byStrategy.set(strategy, (result = { strategy, parts: 0, lines: [], savedBytes: 0, savedTokens: 0 }));
    return result;
  }

  /** An edit of a line at a replay position, with what it saves, for a strategy. */
  edit(strategy: StrategyId, at: number, line: number, edit: EntryEdit, saved: { bytes: number; tokens: number }): void {
    this.builder.edit(line, flatStrings(edit));
    this.firstEdit = Math.min(this.firstEdit, at);
    this.count(strategy, line, saved);
  }

  /** Counts a change made to a line (an edit, or the line dropped) for a strategy. */
  count(strategy: StrategyId, line: number, saved: { bytes: number; tokens: number }): void {
    const result = this.result(strategy);
    this.savedOnLine.set(line, (this.savedOnLine.get(line) ?? 0) + saved.bytes);
    result.parts++;
    result.lines.push(line);
    result.savedBytes += saved.bytes;
    result.savedTokens += saved.tokens;
  }

  /** What each strategy did, in the order of STRATEGIES. */
  report(): StrategyResult[] {
    return STRATEGIES.flatMap((strategy) => {
      const result = this.byStrategy.get(strategy);
      return result === undefined ? [] : [{ ...result, lines: [...new Set(result.lines)].sort((a, b) => a - b) }];
    });
  }
}

/**
 * The edit with its strings flat: a stub or a pointer made by a template is a rope of every piece
 * it joined (20 nodes a stub), and a plan holds tens of thousands of them until it is written.
 * Reading a character is what makes V8 flatten a rope; its pieces are then garbage.
 */
function flatStrings(edit: EntryEdit): EntryEdit {
  for (const value of Object.values(edit)) {
    if (typeof value === 'string') value.charCodeAt(0);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') item.charCodeAt(0);
  }
  return edit;
}
