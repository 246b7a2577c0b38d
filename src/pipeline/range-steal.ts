/**
 * How the thread that finished its range first takes work from the other. The main thread reads
 * the file from the start, the other thread from a split point to the end; whichever the machine
 * favoured, one finishes first. When the other thread does, it asks for the end of the main
 * thread's range; the main thread, between two chunks, names a line it will stop before (or none:
 * too little left) and reads on. One request is open at a time; the main thread closes the board
 * once its range is done, so a request after that is answered at once.
 */
const STATE = 0;
const ANSWER = 1;
const OPEN = 0;
const ASKED = 1;
const CLOSED = 2;
/** In ANSWER: the request was declined. Offsets fit: files past 512 MiB are read by one thread. */
const NONE = -1;

// In every Node this runs on, though in no TypeScript library before ES2024.
const waitAsync = (Atomics as unknown as { waitAsync(words: Int32Array, index: number, value: number): { async: boolean; value: Promise<unknown> | string } }).waitAsync;

export class RangeSteal {
  private readonly words: Int32Array;

  /** A new board, or the other thread's view of one (its `buffer`). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.words = new Int32Array(buffer);
  }

  /** The other thread: the offset of a line to read from up to where its last range began, or undefined when there is none. */
  async ask(): Promise<number | undefined> {
    Atomics.store(this.words, ANSWER, NONE);
    if (Atomics.compareExchange(this.words, STATE, OPEN, ASKED) !== OPEN) return undefined;
    // Waiting without blocking the thread, so a terminate still reaches it; a pending wait alone
    // does not keep a thread's event loop alive, the timer does.
    const alive = setInterval(() => {}, 60_000);
    try {
      for (;;) {
        const waited = waitAsync(this.words, STATE, ASKED);
        if (waited.async) await waited.value;
        if (Atomics.load(this.words, STATE) !== ASKED) break;
      }
    } finally {
      clearInterval(alive);
    }
    const answer = Atomics.load(this.words, ANSWER);
    return answer === NONE ? undefined : answer;
  }

  /** The main thread, between chunks: whether the other thread is asking. */
  get asked(): boolean {
    return Atomics.load(this.words, STATE) === ASKED;
  }

  /** The main thread's answer to a request: where it now stops, or undefined to keep its range (and close the board). */
  answer(stop: number | undefined): void {
    Atomics.store(this.words, ANSWER, stop ?? NONE);
    Atomics.store(this.words, STATE, stop === undefined ? CLOSED : OPEN);
    Atomics.notify(this.words, STATE);
  }

  /** The main thread, its range done: no more requests; one still open is declined. */
  close(): void {
    if (Atomics.compareExchange(this.words, STATE, OPEN, CLOSED) === ASKED) this.answer(undefined);
  }
}
