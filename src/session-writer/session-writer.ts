import type { FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import { clipped, codeOf, reason, UserError } from '../errors.js';
import type { Decoder, TranscriptFormat } from '../formats/format.js';
import { formats } from '../formats/registry.js';
import { appendByCopy } from '../io/append-by-copy.js';
import { open, realpath, stat } from '../io/named-fs.js';
import { sweepStaleTemps } from '../io/stale-temps.js';
import { takeWriteLock, type WriteLock } from '../io/write-lock.js';
import type { NewLine } from '../model/edits.js';
import { positionOf, type Entry } from '../model/entry.js';
import { readExistingLines, type ExistingLines } from './existing-lines.js';
import type { AbortMode, SessionWriter, SessionWriterEvent, SessionWriterOptions } from './api.js';
import { HeldPair, isResultOnly, type HeldCall, type Line } from './held-pair.js';

/** The smallest page a kernel copies writes in: a write inside one is seen whole by readers. */
const PAGE_BYTES = 4096;

/** Append, creating the file; a FIFO put in its place fails at once instead of blocking until a reader comes. */
const APPEND_NOW = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

export type { AbortMode, SessionWriter, SessionWriterEvent, SessionWriterOptions } from './api.js';

/**
 * Opens `path` (created when missing) for pair-atomic appends, holding the session's lock
 * (`<file>.lock`, OpenClaw's convention, which every transcript-doctor command honours) until
 * close. Refused with a UserError while another live process holds the lock, for a format that is
 * not one session per file, and for a path that is not a regular file.
 *
 * A pair (the message with calls, its results, in the order given) is written in one write and
 * fsync, after a check that its calls and results match one to one; a mismatch is dropped. A pair
 * that would cross a 4 KiB page of the file is written to a copy renamed over it instead, so a
 * reader never sees part of it (this costs a copy of the file: about 5 ms for 1 MB, 95 ms for
 * 50 MB on ext4). Lines already in the file are never changed.
 *
 * While a pair is held, bookkeeping the model never sees (progress, events, labels) waits behind
 * it in order and is written with it, or on its own if the pair is dropped. A conversation entry
 * (a prompt, another assistant turn) means the pair will not be completed, so the pair is settled
 * as `abortMode` says before that entry is written, as OpenClaw's guard does. Entries that named a
 * dropped line as parent are linked to its parent instead, and after synthetic results the next
 * entry hangs on the last of them, so the replayed path stays whole.
 *
 * A sub-agent's lines in the same file (Claude Code's side chains, Copilot CLI's sub-agent events)
 * are a conversation of their own: they pass a held pair of the main one by, held in pairs of
 * their own, and never settle it. A line of results that answers no call waiting for one is
 * dropped, in both abort modes: a second result for a call, a late result for a call the writer
 * dropped (`discard`) or answered with a synthetic result (`synthetic`), a result for a call never
 * made. Where the format writes a result before its call (Claude Code, while a response streams),
 * the result is held until its call comes, and dropped if the turn ends first.
 */
export async function openSessionWriter(path: string, options: SessionWriterOptions): Promise<SessionWriter> {
  const format = formats.find((candidate) => candidate.name === options.format && candidate.conversationOf === undefined);
  if (format === undefined) {
    const names = formats.filter((candidate) => candidate.conversationOf === undefined).map((candidate) => candidate.name);
    throw new UserError(`openSessionWriter: format must be one of ${names.join(', ')}, not "${clipped(String(options.format))}"`);
  }
  const abortMode = options.abortMode ?? 'discard';
  if (abortMode !== 'discard' && abortMode !== 'synthetic') throw new UserError(`openSessionWriter: abortMode must be discard or synthetic, not "${clipped(String(abortMode))}"`);
  const found = await stat(path).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw new UserError(`cannot open ${path}: ${reason(error)}`);
  });
  if (found !== undefined && !found.isFile()) throw new UserError(`cannot open ${path}: not a regular file`);
  // Opened first, so a new file exists and its lock is taken beside where it really is (a link may point to it).
  const handle = await open(path, APPEND_NOW, 0o644).catch((error: unknown) => {
    throw new UserError(`cannot open ${path}: ${reason(error)}`);
  });
  let lock: WriteLock | undefined;
  try {
    if (!(await handle.stat()).isFile()) throw new UserError(`cannot open ${path}: not a regular file`);
    lock = await takeWriteLock(path);
    const real = await realpath(path);
    await sweepStaleTemps(dirname(real));
    const decoder = format.createDecoder();
    const existing = await readExistingLines(path, decoder, format);
    return new PairAtomicWriter(path, real, format, abortMode, options.onEvent, lock, handle, decoder, existing, (await handle.stat()).size);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await lock?.release();
    throw error instanceof UserError ? error : new UserError(`cannot open ${path}: ${reason(error)}`);
  }
}

/** The main conversation's key among the held pairs; a sub-agent's is its side chain's. */
const MAIN = '';

class PairAtomicWriter implements SessionWriter {
  /** The held pair of each conversation in the file, the main one's under MAIN. */
  private readonly pairs = new Map<string, HeldPair>();
  /** Calls that have their result in the file, or that the writer dropped: a result for one is not written again. */
  private readonly settledCalls = new Set<string>();
  /** Entry ids that were dropped (or that synthetic results now follow), and the id to link to instead. */
  private readonly relinks = new Map<string, string | null>();
  /** Appends, aborts and close run one at a time, in the order they were called. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | undefined;
  /** A failed write leaves the writer unusable: what is on disk is no longer what it believes. */
  private broken: UserError | undefined;
  private lineCount: number;
  private unterminated: boolean;
  /** In a numbered file, the number of the last line written: each line must carry the next. */
  private lastSequence: number | undefined;

  constructor(
    readonly path: string,
    /** Symlinks resolved: a pair written by copy is renamed over the real file, so a link stays a link. */
    private readonly real: string,
    private readonly format: TranscriptFormat,
    private readonly abortMode: AbortMode,
    private readonly onEvent: ((event: SessionWriterEvent) => void) | undefined,
    private readonly lock: WriteLock,
    private handle: FileHandle,
    private readonly decoder: Decoder,
    existing: ExistingLines,
    private size: number,
  ) {
    this.lineCount = existing.count;
    this.unterminated = existing.unterminated;
    this.lastSequence = existing.lastSequence;
  }

  pendingCallIds(): string[] {
    return this.threads().flatMap((thread) => this.pairs.get(thread)!.pendingIds());
  }

  /** The conversations that hold a pair: the main one first, then the sub-agents' in the order they began holding. */
  private threads(): string[] {
    const others = [...this.pairs.keys()].filter((thread) => thread !== MAIN);
    return this.pairs.has(MAIN) ? [MAIN, ...others] : others;
  }

  append(entry: unknown): Promise<void> {
    return this.serially(() => this.take(this.lineOf(entry)));
  }

  abort(why = 'abort'): Promise<void> {
    return this.serially(() => this.settleAll(why));
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const settled = this.queue.then(() => (this.broken === undefined ? this.settleAll('close') : undefined));
    this.closed = true;
    this.queue = settled.catch(() => undefined);
    try {
      await settled;
    } finally {
      await this.handle.close().catch(() => undefined);
      await this.lock.release();
    }
  }

  private serially(work: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.reject(new UserError(`the session writer of ${this.path} is closed`));
    const run = this.queue.then(() => {
      if (this.broken !== undefined) throw this.broken;
      return work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Parses and checks an appended entry, decodes it, and links it past dropped lines. */
  private lineOf(input: unknown): Line {
    let value = input;
    let text: string | undefined;
    if (typeof input === 'string') {
      try {
        value = JSON.parse(input);
      } catch {
        throw new UserError(`not a JSON line: ${clipped(input)}`);
      }
      // A line written over several lines would be several broken lines in the file.
      if (!/[\r\n]/.test(input)) text = input;
    }
    if (!this.format.isRecord(value)) throw new UserError(`not a ${this.format.name} session line: ${clipped(safeJson(value) ?? String(value))}`);
    const entry = this.decoder.decode(value, this.lineCount + 1, this.lineCount);
    this.lineCount += 1;
    text ??= safeJson(value);
    if (text === undefined) throw new UserError(`not a JSON value: ${clipped(String(value))}`);
    return this.relinked({ value, text, entry });
  }

  /** The conversation a line belongs to: the main one, or a sub-agent's (see AppendingHints.sideChainOf). */
  private threadOf(line: Line): string {
    if (line.entry.agent !== undefined) return `agent:${line.entry.agent}`;
    const side = this.format.appending?.sideChainOf?.(line.value);
    return side === undefined ? MAIN : `side:${side}`;
  }

  private async take(line: Line): Promise<void> {
    const thread = this.threadOf(line);
    const pair = this.pairs.get(thread);
    if (isResultOnly(line.entry)) {
      const stray = this.strayReason(line.entry, pair);
      if (stray !== undefined) return this.dropResults(line, stray);
    }
    if (pair === undefined) {
      if (!isResultOnly(line.entry) && (line.entry.toolCalls === undefined || line.entry.toolCalls.length === 0)) return this.write([line]);
      this.pairs.set(thread, new HeldPair(line, this.format.appending?.responseGroups === true));
      return this.commitIfComplete(thread);
    }
    const relation = pair.relationOf(line.entry);
    if (relation === 'next-turn') {
      await this.settle(thread, 'next turn');
      // It may name a line of the pair just dropped as its parent.
      return this.take(this.relinked(line));
    }
    pair.add(line, relation);
    if (relation === 'result' || relation === 'part') await this.commitIfComplete(thread);
  }

  /**
   * Why a line of results must not be written, if it must not: one names a call already answered
   * or settled, or (where a result never comes before its call) a call not waiting for one.
   */
  private strayReason(entry: Entry, pair: HeldPair | undefined): string | undefined {
    let unknown = false;
    for (const { callId } of entry.toolResults!) {
      if (callId !== undefined && pair?.isPending(callId) === true) continue;
      if (callId !== undefined && (this.settledCalls.has(callId) || pair?.isAnswered(callId) === true)) return 'answered already';
      unknown = true;
    }
    return unknown && this.format.appending?.responseGroups !== true ? 'no such call' : undefined;
  }

  private dropResults(line: Line, why: string): void {
    this.forget([line]);
    const callIds = line.entry.toolResults!.flatMap((result) => (result.callId === undefined ? [] : [result.callId]));
    this.onEvent?.({ kind: 'dropped', reason: why, callIds, lines: 0 });
  }

  private async commitIfComplete(thread: string): Promise<void> {
    const pair = this.pairs.get(thread)!;
    if (!pair.complete) return;
    this.pairs.delete(thread);
    if (!pair.intact()) return this.drop(pair, 'integrity');
    await this.write(pair.lines(), true);
    this.noteSettled(pair);
    // What waited with results that proved strays holds no pair of its own.
    if (pair.callIds().length > 0) this.onEvent?.({ kind: 'committed', callIds: pair.callIds(), lines: pair.lines().length });
  }

  /** Every held pair, interrupted: the sub-agents' first, whose results the main conversation's calls wait for. */
  private async settleAll(why: string): Promise<void> {
    for (const thread of this.threads().reverse()) await this.settle(thread, why);
  }

  /**
   * The held pair of `thread`, interrupted: results still waiting for their call are dropped;
   * the rest is written if it is complete, else dropped or completed with synthetic results, as
   * abortMode says.
   */
  private async settle(thread: string, why: string): Promise<void> {
    const pair = this.pairs.get(thread);
    if (pair === undefined) return;
    const strays = pair.takeStrays();
    for (const stray of strays) this.dropResults(stray, 'no such call');
    // Lines held after a stray may name it as their parent.
    if (strays.length > 0) pair.relink((line) => this.relinked(line));
    if (pair.complete && pair.hasMessage) return this.commitIfComplete(thread);
    this.pairs.delete(thread);
    if (this.abortMode === 'discard' || !pair.hasMessage) return this.drop(pair, why);
    const leaf = pair.last().entry;
    for (const call of pair.unanswered()) pair.add(this.syntheticResult(call, pair.last().entry), 'result');
    if (!pair.intact()) return this.drop(pair, 'integrity');
    await this.write(pair.lines(), true);
    this.noteSettled(pair);
    const last = pair.last().entry;
    if (leaf.id !== undefined && last.id !== undefined && last !== leaf) this.relinks.set(leaf.id, last.id);
    this.onEvent?.({ kind: 'completed', reason: why, callIds: pair.callIds(), lines: pair.lines().length });
  }

  /** Writes the bookkeeping held with the pair, linked past the pair's own lines, and nothing of the pair. */
  private async drop(pair: HeldPair, why: string): Promise<void> {
    this.forget(pair.own());
    const kept = pair.asides().map((line) => this.relinked(line));
    await this.write(kept);
    this.noteSettled(pair);
    // Results that waited for a call that never came are reported as dropped, not as a pair.
    if (pair.hasMessage) this.onEvent?.({ kind: 'discarded', reason: why, callIds: pair.callIds(), lines: kept.length });
  }

  /** Lines that will not be written: an entry that names one as its parent is linked to that line's parent. */
  private forget(lines: readonly Line[]): void {
    for (const { entry } of lines) {
      if (entry.id === undefined || typeof entry.parentId === 'undefined') continue;
      const parent = entry.parentId === null ? null : this.relinks.get(entry.parentId) ?? entry.parentId;
      this.relinks.set(entry.id, parent);
    }
  }

  private noteSettled(pair: HeldPair): void {
    for (const id of pair.callIds()) this.settledCalls.add(id);
  }

  private relinked(line: Line): Line {
    const parent = typeof line.entry.parentId === 'string' ? this.relinks.get(line.entry.parentId) : undefined;
    if (parent === undefined) return line;
    const value = structuredClone(line.value);
    this.format.encoder.apply(value, [{ kind: 'set-parent', parentId: parent }]);
    line.entry.parentId = parent;
    return { value, text: JSON.stringify(value), entry: line.entry };
  }

  /** An error result for `call` in the format's own shape, hung on `previous` when lines are linked by id. */
  private syntheticResult(call: HeldCall, previous: Entry): Line {
    const added: Extract<NewLine, { kind: 'missing-result' }> = { kind: 'missing-result', callId: call.id!, toolName: call.name?.trim(), timestampFrom: call.line.entry.line };
    if (previous.id !== undefined && positionOf(previous.id) === undefined && !previous.linksToPrevious) {
      added.id = this.format.encoder.newId(`${this.path}\n${call.id}\n${this.lineCount}`);
      added.parentId = previous.id;
    }
    const value = this.format.encoder.create(added, call.line.value, new Date());
    const entry = this.decoder.decode(value, this.lineCount + 1, this.lineCount);
    this.lineCount += 1;
    return { value, text: JSON.stringify(value), entry };
  }

  /**
   * One write and one fsync for all of `lines`; a failed write is cut back off, so no half line
   * stays. A pair that would cross a page boundary is appended by copy (see appendByCopy), so a
   * reader never sees its call without its results; one inside a page is seen whole or not at all.
   */
  private async write(lines: readonly Line[], pair = false): Promise<void> {
    if (lines.length === 0) return;
    const numbered = lines.map((line) => this.numbered(line));
    const bytes = Buffer.from(`${this.unterminated ? '\n' : ''}${numbered.map((line) => line.text).join('\n')}\n`);
    try {
      if (pair && Math.floor(this.size / PAGE_BYTES) !== Math.floor((this.size + bytes.length - 1) / PAGE_BYTES)) {
        await appendByCopy(this.real, bytes);
        await this.handle.close();
        this.handle = await open(this.real, 'a');
      } else {
        for (let offset = 0; offset < bytes.length; ) offset += (await this.handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
        await this.handle.datasync();
      }
    } catch (error) {
      await this.handle.truncate(this.size).catch(() => undefined);
      this.broken = new UserError(`cannot write ${this.path}: ${reason(error)}`);
      throw this.broken;
    }
    this.size += bytes.length;
    this.unterminated = false;
  }

  /**
   * In a numbered file each line carries the number after the last one written: dropped lines
   * would leave a gap, and synthetic results have none of their own, so both are numbered here.
   */
  private numbered(line: Line): Line {
    if (this.lastSequence === undefined) {
      this.lastSequence = line.entry.sequence;
      return line;
    }
    const next = this.lastSequence + 1;
    this.lastSequence = next;
    if (line.entry.sequence === next) return line;
    const value = structuredClone(line.value);
    this.format.encoder.apply(value, [{ kind: 'set-sequence', value: next }]);
    line.entry.sequence = next;
    return { value, text: JSON.stringify(value), entry: line.entry };
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
