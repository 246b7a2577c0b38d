import type { KeptHistoryProblem } from '../../model/entry.js';
import type { CallPart, MessageSummary, ResponsePart } from './summary.js';

/** A message of the replayed list: the entry of the line whose copy wins, and where the message sits in that line. */
export interface ReplayedMessage {
  entry: number;
  /** Where the message sits in that line ('' for a line of its own). */
  pointer: string;
  summary: MessageSummary;
  /** Where the copy whose place in the list the message holds sits, when that is an earlier one (its entry, its pointer there). */
  place?: { entry: number; pointer: string };
}

/** A turn of the request, or one message's share of it: its calls and responses, and the messages it holds from which part on. */
interface Turn {
  role: 'model' | 'user';
  calls: Array<CallPart & { entry: number }>;
  responses: Array<ResponsePart & { entry: number }>;
  members: Array<{ message: ReplayedMessage; from: number }>;
  parts: number;
  /** A model turn the client leaves out, with the run of model turns it is in (`extractCuratedHistory`). */
  invalid: boolean;
}

/**
 * The problems of the history the client sends for these messages, by entry. It builds the turns
 * as `convertSessionToClientHistory` does (a model message is a model turn with one `functionCall`
 * per call, then a user turn with the responses of the calls that have a result; messages it skips
 * make no turn), leaves out what `getHistoryTurns` leaves out (a run of model turns one of which
 * holds an empty part, turns of nothing but thoughts), merges consecutive turns of one role as
 * `coalesceConsecutiveRoles` does, and judges them as the Gemini API does: each call turn against
 * the turn after it (each call answered once, by a response of its name, no response left over),
 * no call turn first, no blank text part. Signed parts are noted for the provider choice to judge.
 */
export function judgeHistory(messages: Iterable<ReplayedMessage>): Map<number, KeptHistoryProblem[]> {
  const problems = new Map<number, KeptHistoryProblem[]>();
  const report = (entry: number, problem: KeptHistoryProblem) => {
    const found = problems.get(entry);
    if (found === undefined) problems.set(entry, [problem]);
    else found.push(problem);
  };
  const turns = coalesced(sent(messages));
  turns.forEach((turn, t) => {
    judgeParts(turn, t, report);
    if (turn.role === 'user') {
      // Responses not right after a call turn answer nothing.
      if (turns[t - 1]?.role !== 'model' || turns[t - 1]!.calls.length === 0) for (const response of turn.responses) report(response.entry, { kind: 'displaced-result', callId: label(response), pointer: response.pointer });
      return;
    }
    if (turn.calls.length === 0) return;
    if (t === 0) opensHistory(turn, report);
    const next = turns[t + 1];
    const open = new OpenCalls(turn.calls);
    (next?.role === 'user' ? next.responses : []).forEach((response, part) => {
      const k = open.answer(response);
      if (k !== -1) {
        misnamed(response, turn.calls[k]!, { turn: t + 1, part }, report);
        return;
      }
      report(response.entry, { kind: open.calls(response) ? 'duplicate-result' : 'orphan-result', callId: label(response), pointer: response.pointer });
    });
    turn.calls.forEach((call, k) => {
      if (!open.answered[k]) report(call.entry, { kind: 'missing-result', callId: label(call), pointer: call.pointer });
    });
  });
  return problems;
}

type Report = (entry: number, problem: KeptHistoryProblem) => void;

/** The blank text parts and the first signed part of each message in a turn, placed in the turn. */
function judgeParts(turn: Turn, t: number, report: Report): void {
  for (const { message, from } of turn.members) {
    const { blank, signed } = message.summary;
    for (const part of blank ?? []) {
      report(message.entry, { kind: 'blank-text', pointer: part.pointer, turn: t, part: from + part.part, ...(part.whitespace ? { whitespace: true as const } : {}) });
    }
    if (signed !== undefined) report(message.entry, { kind: 'signed-reasoning', pointer: signed.pointer, turn: t, part: from + signed.part });
  }
}

/** The first turn is one of calls: reported at the message that holds its first call (a message of text may come before it in the turn). */
function opensHistory(turn: Turn, report: Report): void {
  const member = turn.members.find(({ message }) => message.summary.calls.length > 0);
  if (member === undefined) return;
  const { entry, summary, place } = member.message;
  report(entry, { kind: 'calls-open-history', pointer: summary.pointer, turn: 0, part: member.from, placed: place ?? { entry, pointer: summary.pointer } });
}

/**
 * A response that answers its call by id but names another tool, or none (the client pairs by
 * name only where ids are missing, so names then agree). A string result is sent under its call's name.
 */
function misnamed(response: ResponsePart & { entry: number }, call: CallPart, at: { turn: number; part: number }, report: Report): void {
  if (response.id === undefined || call.id === undefined) return;
  const wrote = response.name?.trim() ?? '';
  const called = call.name?.trim() ?? '';
  if (called === '' || wrote === called) return;
  const pointer = `${response.pointer}/functionResponse/name`;
  if (wrote === '') report(response.entry, { kind: 'result-name-missing', pointer, ...at, callId: call.id, callName: called });
  else report(response.entry, { kind: 'result-name-mismatch', pointer, ...at, callId: call.id, name: wrote, callName: called });
}

/** The turns `convertSessionToClientHistory` makes, without those `getHistoryTurns` leaves out. */
function sent(messages: Iterable<ReplayedMessage>): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    const { entry, summary } = message;
    if (!summary.sent) continue;
    const turn = (role: Turn['role'], parts: number): Turn => ({ role, calls: [], responses: [], members: [{ message, from: 0 }], parts, invalid: false });
    if (summary.type === 'user') {
      turns.push({ ...turn('user', summary.parts), responses: summary.responses.map((response) => ({ ...response, entry })) });
      continue;
    }
    turns.push({ ...turn('model', summary.parts), calls: summary.calls.map((call) => ({ ...call, entry })), invalid: summary.invalid === true });
    const results = summary.calls.flatMap((call) => call.responses.map((response) => ({ ...response, entry })));
    // The results are another turn of the message: none of its blank or signed parts are in it.
    if (results.length > 0) turns.push({ role: 'user', calls: [], responses: results, members: [], parts: results.length, invalid: false });
  }
  // A run of model turns goes whole when one of them is left out; then turns of nothing but thoughts.
  const kept: Turn[] = [];
  for (let t = 0; t < turns.length; ) {
    let end = t + 1;
    if (turns[t]!.role === 'model') while (end < turns.length && turns[end]!.role === 'model') end += 1;
    const run = turns.slice(t, end);
    if (!run.some((turn) => turn.invalid)) kept.push(...run.filter((turn) => turn.parts > 0));
    t = end;
  }
  return kept;
}

function coalesced(turns: Turn[]): Turn[] {
  const merged: Turn[] = [];
  for (const turn of turns) {
    const last = merged.at(-1);
    if (last?.role !== turn.role) {
      merged.push(turn);
      continue;
    }
    // One push per part: spreading a message of a hundred thousand calls overflows the stack.
    for (const call of turn.calls) last.calls.push(call);
    for (const response of turn.responses) last.responses.push(response);
    for (const member of turn.members) last.members.push({ ...member, from: member.from + last.parts });
    last.parts += turn.parts;
  }
  return merged;
}

/**
 * The calls of a turn, each answered by the first response that answers it: a response answers a
 * call with its id, or, when either has none, with its name (as the client pairs them,
 * `ensureStableToolIds`). Calls are queued by id and by name, so a turn of n calls and n
 * responses is paired in about n steps, not n².
 */
class OpenCalls {
  readonly answered: boolean[];
  /** Calls with an id, by id; calls without one, by name; every call, by name. */
  private readonly byId = new Map<string, CallQueue>();
  private readonly idlessByName = new Map<string | undefined, CallQueue>();
  private readonly byName = new Map<string | undefined, CallQueue>();

  constructor(calls: readonly CallPart[]) {
    this.answered = new Array<boolean>(calls.length).fill(false);
    calls.forEach((call, k) => {
      if (call.id !== undefined) queueOf(this.byId, call.id).calls.push(k);
      else queueOf(this.idlessByName, call.name).calls.push(k);
      queueOf(this.byName, call.name).calls.push(k);
    });
  }

  /** Whether any call of the turn, answered or not, is one this response answers. */
  calls(response: ResponsePart): boolean {
    if (response.id === undefined) return this.byName.has(response.name);
    return this.byId.has(response.id) || this.idlessByName.has(response.name);
  }

  /** Marks the first open call the response answers and returns its index, or -1. */
  answer(response: ResponsePart): number {
    const k =
      response.id === undefined
        ? this.first(this.byName.get(response.name))
        : earliest(this.first(this.byId.get(response.id)), this.first(this.idlessByName.get(response.name)));
    if (k !== -1) this.answered[k] = true;
    return k;
  }

  /** The queue's first call still open; answered calls are passed over once and for all. */
  private first(queue: CallQueue | undefined): number {
    if (queue === undefined) return -1;
    while (queue.next < queue.calls.length && this.answered[queue.calls[queue.next]!]) queue.next += 1;
    return queue.next < queue.calls.length ? queue.calls[queue.next]! : -1;
  }
}

interface CallQueue {
  calls: number[];
  next: number;
}

function queueOf<K>(queues: Map<K, CallQueue>, key: K): CallQueue {
  let queue = queues.get(key);
  if (queue === undefined) queues.set(key, (queue = { calls: [], next: 0 }));
  return queue;
}

function earliest(a: number, b: number): number {
  return a === -1 ? b : b === -1 ? a : Math.min(a, b);
}

function label(part: ResponsePart): string {
  return part.id ?? part.name ?? '(unnamed)';
}
