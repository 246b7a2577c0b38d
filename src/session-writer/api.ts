/** The session writer's public shapes (see openSessionWriter in session-writer.ts). */

/** What happens to a held pair when the run is interrupted before every result has arrived. */
export type AbortMode = 'discard' | 'synthetic';

export interface SessionWriterOptions {
  /** The session's format, as `--agent` names it: `pi` (pi and OpenClaw), `claude-code` or `codex`. */
  format: string;
  /**
   * `discard` (default): an interrupted pair is dropped, as if the turn had never been written.
   * `synthetic`: it is written with an error result for every call still waiting, in the
   * format's own shape (the result `repair --mode synthetic` adds).
   */
  abortMode?: AbortMode;
  /** Told each time a held pair is settled, and each time a result is dropped; nothing else is reported. */
  onEvent?: (event: SessionWriterEvent) => void;
}

export interface SessionWriterEvent {
  /**
   * `committed`: a complete pair was written; `completed`: an interrupted one, with synthetic
   * results; `discarded`: one was dropped; `dropped`: a line of results that answers no call
   * waiting for one was not written (see openSessionWriter), in either abort mode.
   */
  kind: 'committed' | 'completed' | 'discarded' | 'dropped';
  /**
   * Why a pair was not committed whole: the abort reason, `next turn` (a conversation entry came
   * first), `close`, or `integrity` (calls and results did not match). Why results were dropped:
   * `answered already` (a second result, or one for a call the writer settled: dropped with its
   * pair, or answered with a synthetic result) or `no such call` (a call never made).
   */
  reason?: string;
  /** The calls of the pair; for `dropped`, the calls the dropped results name. */
  callIds: string[];
  /** Lines written for it (bookkeeping held with a discarded pair is kept); 0 for `dropped`. */
  lines: number;
}

/**
 * Appends to a session file so that it never holds an assistant tool call without its results.
 * See openSessionWriter.
 */
export interface SessionWriter {
  readonly path: string;
  /** Calls of the held pairs still waiting for their result, in call order, the main conversation's first (empty when nothing is held). */
  pendingCallIds(): string[];
  /**
   * Appends one line of the session's format: a parsed value, or its JSON text. Resolves once it
   * is on disk (fsync), or held: an assistant message with tool calls, what belongs to it, and
   * what arrives while it waits, are held until the last result arrives and then written together.
   * A line of results that answers no call waiting for one is dropped (an `onEvent` `dropped`),
   * never written: it would be an orphan or a second result.
   */
  append(entry: unknown): Promise<void>;
  /** The run was interrupted: settles the held pairs (a sub-agent's too) as `abortMode` says. Nothing held: nothing happens. */
  abort(reason?: string): Promise<void>;
  /** Settles a held pair as abort does (reason `close`), then releases the lock. Safe to call twice. */
  close(): Promise<void>;
}
