import type { Entry } from '../model/entry.js';

/**
 * A set of a file's entries kept as one byte per entry: the replay planner asks whether an entry
 * is dropped or moved for every entry of the path, and a hash lookup per ask was most of its time.
 */
export class EntryMarks {
  private readonly marks: Uint8Array;
  size = 0;

  constructor(entries: number) {
    this.marks = new Uint8Array(entries);
  }

  has(entry: Entry): boolean {
    return this.marks[entry.index] === 1;
  }

  add(entry: Entry): void {
    if (this.marks[entry.index] === 1) return;
    this.marks[entry.index] = 1;
    this.size += 1;
  }
}
