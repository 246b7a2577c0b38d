import { open, WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { UserError } from '../errors.js';
import { refuseWritesOverInputs, type PlannedWrite } from './output-paths.js';

/** The parts of an fs.WriteStream that Node's typings leave out or mark read-only. */
type PendingFileStream = WriteStream & { fd: number | null; flags: string; mode: number; open: () => void };

/**
 * A caller's output stream, checked against the inputs before anything is read. `fs.createWriteStream(p)`
 * opens (and with its default flags truncates) `p` on the next tick, so a stream to an input
 * would empty it before any check could run. Made at call time, before that tick, the guard takes
 * over the open (Node still calls a WriteStream's own `open` when one is set, for compatibility) and lets it happen only
 * once the stream is known not to lead to an input; a refused stream is destroyed unopened.
 */
export class OutputStreamGuard {
  private decision: Error | null | undefined;
  private openWaiting: (() => void) | undefined;
  private readonly target: PlannedWrite | undefined;

  constructor(stream: Writable) {
    if (stream instanceof WriteStream && (stream as PendingFileStream).fd === null && stream.pending) {
      const file = stream as PendingFileStream;
      this.target = { flag: 'the output stream', path: String(file.path) };
      file.open = () => {
        this.openWaiting = () => this.openFile(file);
        if (this.decision !== undefined) this.openWaiting();
      };
    } else {
      const fd = (stream as Partial<{ fd: unknown }>).fd;
      this.target = typeof fd === 'number' ? { flag: 'the output stream', fd } : undefined;
    }
  }

  /** Refuses (and destroys the held stream) when the stream writes to one of `inputs`; else lets it open. */
  async check(inputs: readonly string[]): Promise<void> {
    if (this.target === undefined) return this.settle(null);
    try {
      await refuseWritesOverInputs([this.target], inputs);
    } catch (error) {
      this.settle(error as Error);
      throw error;
    }
    this.settle(null);
  }

  /** The call failed before the check: a held stream is destroyed unopened, never left pending. */
  abandon(error: unknown): void {
    if (this.decision === undefined) this.settle(error instanceof Error ? error : new UserError(String(error)));
  }

  private settle(decision: Error | null): void {
    if (this.decision !== undefined) return;
    this.decision = decision;
    this.openWaiting?.();
  }

  private openFile(file: PendingFileStream): void {
    const fail = (error: Error) => {
      // The caller learns of the refusal from the rejected promise; an unheard 'error' event would crash the process.
      if (file.listenerCount('error') === 0) file.once('error', () => {});
      file.emit('error', error);
    };
    if (this.decision) return fail(this.decision);
    open(file.path, file.flags, file.mode, (error, fd) => {
      if (error) return fail(error);
      file.fd = fd;
      file.emit('open', fd);
      file.emit('ready');
    });
  }
}
