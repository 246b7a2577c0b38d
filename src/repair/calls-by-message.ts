import type { Entry } from '../model/entry.js';
import type { CallOccurrence, OccurrenceIndex } from '../model/occurrences.js';

/**
 * Each assistant message's call occurrences on the path, read from the pairing's numbers when
 * asked. A message's calls become objects only when they are looked at one by one (it loses some,
 * or its results are put in order): a long path holds tens of thousands of calls, and making an
 * object per call for every plan was a good part of planning a huge file. A message's list can be
 * replaced (calls it drops) or removed (the message goes).
 */
export class CallsByMessage {
  /** Lists replaced or removed (undefined), by message. */
  private readonly changed = new Map<Entry, CallOccurrence[] | undefined>();
  /** Context position per entry index, -1 off the context; made on first use. */
  private positions: Int32Array | undefined;

  constructor(
    private readonly index: OccurrenceIndex,
    private readonly items: readonly Entry[],
    private readonly entries: number,
  ) {}

  get(message: Entry): CallOccurrence[] | undefined {
    if (this.changed.has(message)) return this.changed.get(message);
    const start = this.first(message);
    if (start === -1) return undefined;
    const calls: CallOccurrence[] = [];
    for (let n = start; this.belongs(n, start); n++) calls.push(this.index.object(n));
    return calls;
  }

  set(message: Entry, calls: CallOccurrence[]): void {
    this.changed.set(message, calls);
  }

  delete(message: Entry): void {
    this.changed.set(message, undefined);
  }

  /** The message's calls into `into`: numbers for a list as the pairing made it, objects for one replaced. */
  collect(message: Entry, into: Array<CallOccurrence | number>): void {
    if (this.changed.has(message)) {
      into.push(...(this.changed.get(message) ?? []));
      return;
    }
    const start = this.first(message);
    if (start === -1) return;
    for (let n = start; this.belongs(n, start); n++) into.push(n);
  }

  /** Every message's list, in path order, as a map built all at once would hand them out. */
  *values(): IterableIterator<CallOccurrence[]> {
    const listed = new Set<Entry>();
    for (let n = 0; n < this.index.count; ) {
      const message = this.items[this.index.positionOf(n)]!;
      const start = n;
      while (this.belongs(n, start)) n++;
      listed.add(message);
      const calls = this.get(message);
      if (calls !== undefined) yield calls;
    }
    for (const [message, calls] of this.changed) if (!listed.has(message) && calls !== undefined) yield calls;
  }

  /** The number of the message's first occurrence, -1 when it has none. */
  private first(message: Entry): number {
    if (this.positions === undefined) {
      this.positions = new Int32Array(this.entries).fill(-1);
      this.items.forEach((item, at) => (this.positions![item.index] = at));
    }
    const at = this.positions[message.index]!;
    if (at === -1) return -1;
    const n = this.index.firstAt(at);
    return n < this.index.count && this.index.positionOf(n) === at ? n : -1;
  }

  private belongs(n: number, start: number): boolean {
    return n < this.index.count && this.index.positionOf(n) === this.index.positionOf(start);
  }
}
