import type { EntryStore } from '../model/entry-store.js';
import { isProviderId, type ProviderId } from './provider-id.js';

/**
 * The provider each assistant entry talked to, for formats whose messages say so (pi writes
 * `provider` / `api` on every assistant message). The decoder marks only the entries where it
 * changes (a rare field), so a session that never switches models holds one mark.
 */
export class SessionProviders {
  private constructor(
    /** Entry indices of the marks, ascending. */
    private readonly at: Int32Array,
    private readonly ids: ReadonlyArray<ProviderId | undefined>,
  ) {}

  /** A file whose turns say nothing of their provider (every line of a request file): one for all of them. */
  private static readonly unknown = new SessionProviders(new Int32Array(0), []);

  static of(store: EntryStore): SessionProviders {
    const marks: Array<[number, ProviderId | undefined]> = [];
    for (const [index, rare] of store.rare) if (rare.provider !== undefined) marks.push([index, isProviderId(rare.provider) ? rare.provider : undefined]);
    if (marks.length === 0) return SessionProviders.unknown;
    marks.sort((a, b) => a[0] - b[0]);
    return new SessionProviders(Int32Array.from(marks, (mark) => mark[0]), marks.map((mark) => mark[1]));
  }

  /** Whether the file says who any of its turns talked to. */
  get known(): boolean {
    return this.at.length > 0;
  }

  /** The provider of entry `index`: the last mark at or before it; undefined when unknown or not one of ours. */
  providerOf(index: number): ProviderId | undefined {
    let low = 0;
    let high = this.at.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.at[middle]! <= index) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : this.ids[low - 1];
  }
}

