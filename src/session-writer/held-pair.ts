import type { Entry } from '../model/entry.js';

/** One line given to the writer: its parsed value, the text that will be written, and its neutral view. */
export interface Line {
  value: unknown;
  text: string;
  entry: Entry;
}

/** A call of the held message: what a synthetic result needs to answer it. */
export interface HeldCall {
  id: string | undefined;
  name: string | undefined;
  /** The line that carries it. */
  line: Line;
}

/**
 * How an appended entry relates to the held pair: a `result`; a `part` of the held message (the
 * next line of a message written a block a line, another call of the same response); an `aside`
 * (bookkeeping the model never sees, such as progress and event lines); or the `next-turn`, a
 * conversation entry that means the pair will not be completed.
 */
export type Relation = 'result' | 'part' | 'aside' | 'next-turn';

/**
 * An assistant message with tool calls and what has arrived since, held until every call has its
 * result. Format-neutral: it reads only the decoded entries. Where the format writes a result
 * before its call (see AppendingHints.responseGroups), a pair may open with results that wait
 * for their calls.
 */
export class HeldPair {
  private readonly held: Array<{ line: Line; aside: boolean }> = [];
  private readonly calls: HeldCall[] = [];
  /** Calls still waiting, by id. */
  private readonly pending = new Set<string>();
  /** Calls answered by a line held here, by id. */
  private readonly answeredIds = new Set<string>();
  /** Results held here whose call has not come yet, by the call id they name. */
  private readonly awaited = new Set<string>();
  private answered = false;
  private group: string | undefined;

  constructor(
    first: Line,
    /** See AppendingHints.responseGroups. */
    private readonly responseGroups: boolean,
  ) {
    this.group = first.entry.group;
    this.add(first, isResultOnly(first.entry) ? 'result' : 'part');
  }

  relationOf(entry: Entry): Relation {
    if (isResultOnly(entry)) return 'result';
    if (entry.role === 'assistant' && this.sameResponse(entry)) return 'part';
    return entry.inContext && entry.kind !== 'header' ? 'next-turn' : 'aside';
  }

  private sameResponse(entry: Entry): boolean {
    if (entry.toolCalls?.some((call) => call.id !== undefined && this.awaited.has(call.id))) return true;
    if (!this.responseGroups) return !this.answered && entry.group !== undefined && entry.group === this.group;
    // Results that came before any line of their response: the next assistant line is that response.
    if (this.group === undefined && this.calls.length === 0) return entry.group !== undefined;
    return entry.group !== undefined && entry.group === this.group;
  }

  add(line: Line, relation: Exclude<Relation, 'next-turn'>): void {
    this.held.push({ line, aside: relation === 'aside' });
    if (relation === 'aside') return;
    this.group ??= line.entry.role === 'assistant' ? line.entry.group : undefined;
    for (const call of line.entry.toolCalls ?? []) {
      this.calls.push({ id: call.id, name: call.name, line });
      if (call.id === undefined) continue;
      if (this.awaited.delete(call.id)) this.answeredIds.add(call.id);
      else this.pending.add(call.id);
    }
    for (const result of line.entry.toolResults ?? []) {
      this.answered = true;
      if (result.callId === undefined) continue;
      if (this.pending.delete(result.callId)) this.answeredIds.add(result.callId);
      else this.awaited.add(result.callId);
    }
  }

  /** A call of this pair waiting for its result. */
  isPending(callId: string): boolean {
    return this.pending.has(callId);
  }

  /** A call of this pair that a held line answers already. */
  isAnswered(callId: string): boolean {
    return this.answeredIds.has(callId);
  }

  /** Every call with an id has a result, and every result its call (a call without an id can never be answered: see intact). */
  get complete(): boolean {
    return this.pending.size === 0 && this.awaited.size === 0;
  }

  /**
   * Takes out the lines whose every result still waits for a call that will not come now (the
   * turn is over), and returns them; what stays may be complete.
   */
  takeStrays(): Line[] {
    if (this.awaited.size === 0) return [];
    const strays: Line[] = [];
    for (let i = this.held.length - 1; i >= 0; i--) {
      const { line, aside } = this.held[i]!;
      const results = line.entry.toolResults;
      if (aside || line.entry.toolCalls?.length || results === undefined || results.length === 0) continue;
      if (!results.every((result) => result.callId !== undefined && this.awaited.has(result.callId))) continue;
      this.held.splice(i, 1);
      strays.unshift(line);
    }
    for (const line of strays) for (const result of line.entry.toolResults!) this.awaited.delete(result.callId!);
    return strays;
  }

  /** Each held line replaced by `change` of it (linked past lines taken out). */
  relink(change: (line: Line) => Line): void {
    for (const item of this.held) item.line = change(item.line);
  }

  /** Calls still waiting for a result, in call order. */
  unanswered(): HeldCall[] {
    return this.calls.filter((call) => call.id !== undefined && this.pending.has(call.id));
  }

  pendingIds(): string[] {
    return this.unanswered().map((call) => call.id!);
  }

  callIds(): string[] {
    return this.calls.flatMap((call) => (call.id === undefined ? [] : [call.id]));
  }

  /** The pair holds a message (its calls or text), not only results waiting for one. */
  get hasMessage(): boolean {
    return this.held.some((item) => !item.aside && !isResultOnly(item.line.entry));
  }

  /** Everything held, in the order it was appended. */
  lines(): Line[] {
    return this.held.map((item) => item.line);
  }

  /** The pair's own lines (the message and its results), dropped when the pair is. */
  own(): Line[] {
    return this.held.filter((item) => !item.aside).map((item) => item.line);
  }

  /** Bookkeeping appended while the pair was held: kept whatever happens to the pair. */
  asides(): Line[] {
    return this.held.filter((item) => item.aside).map((item) => item.line);
  }

  last(): Line {
    return this.held.at(-1)!.line;
  }

  /**
   * Checked just before a commit: every call has an id of its own and exactly one result, and
   * every result answers one of these calls. A pair that fails is dropped, never written.
   */
  intact(): boolean {
    const ids = new Set<string>();
    for (const call of this.calls) {
      if (call.id === undefined || ids.has(call.id)) return false;
      ids.add(call.id);
    }
    const answered = new Set<string>();
    for (const line of this.own()) {
      for (const result of line.entry.toolResults ?? []) {
        if (result.callId === undefined || !ids.has(result.callId) || answered.has(result.callId)) return false;
        answered.add(result.callId);
      }
    }
    return answered.size === ids.size;
  }
}

/** A line that answers calls and makes none (a line that does both answers its own, as Gemini CLI's do). */
export function isResultOnly(entry: Entry): boolean {
  return entry.toolResults !== undefined && entry.toolResults.length > 0 && (entry.toolCalls === undefined || entry.toolCalls.length === 0);
}
