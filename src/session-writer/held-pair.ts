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
 * result. Format-neutral: it reads only the decoded entries.
 */
export class HeldPair {
  private readonly held: Array<{ line: Line; aside: boolean }> = [];
  private readonly calls: HeldCall[] = [];
  /** Calls still waiting, by id. */
  private readonly pending = new Set<string>();
  private answered = false;
  private readonly group: string | undefined;

  constructor(first: Line) {
    this.group = first.entry.group;
    this.add(first, 'part');
  }

  relationOf(entry: Entry): Relation {
    if (entry.toolResults !== undefined && entry.toolResults.length > 0) return 'result';
    // Once a result is in, the message is over: a new response of the same group is a new turn.
    if (!this.answered && entry.role === 'assistant' && entry.group !== undefined && entry.group === this.group) return 'part';
    return entry.inContext && entry.kind !== 'header' ? 'next-turn' : 'aside';
  }

  add(line: Line, relation: Exclude<Relation, 'next-turn'>): void {
    this.held.push({ line, aside: relation === 'aside' });
    if (relation === 'aside') return;
    for (const call of line.entry.toolCalls ?? []) {
      this.calls.push({ id: call.id, name: call.name, line });
      if (call.id !== undefined) this.pending.add(call.id);
    }
    for (const result of line.entry.toolResults ?? []) {
      this.answered = true;
      if (result.callId !== undefined) this.pending.delete(result.callId);
    }
  }

  /** Every call with an id has a result (a call without one can never be answered: see intact). */
  get complete(): boolean {
    return this.pending.size === 0;
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
