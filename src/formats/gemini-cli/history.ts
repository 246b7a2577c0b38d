import type { KeptHistoryProblem } from '../../model/entry.js';
import type { CallPart, MessageSummary, ResponsePart } from './summary.js';

/** A message of the replayed list: the entry of the line whose copy wins, and where the message sits in that line. */
export interface ReplayedMessage {
  entry: number;
  summary: MessageSummary;
}

interface Turn {
  role: 'model' | 'user';
  calls: Array<CallPart & { entry: number }>;
  responses: Array<ResponsePart & { entry: number }>;
}

/**
 * The pairing problems of the history the client sends for these messages, by entry. It builds
 * the turns as `convertSessionToClientHistory` does (a model message is a model turn with one
 * `functionCall` per call, then a user turn with the responses of the calls that have a result;
 * messages it skips make no turn), merges consecutive turns of one role as
 * `coalesceConsecutiveRoles` does, and judges each call turn against the turn after it as the
 * Gemini API does: each call answered once, no response left over.
 */
export function judgeHistory(messages: Iterable<ReplayedMessage>): Map<number, KeptHistoryProblem[]> {
  const problems = new Map<number, KeptHistoryProblem[]>();
  const report = (entry: number, problem: KeptHistoryProblem) => problems.set(entry, [...(problems.get(entry) ?? []), problem]);
  const turns = coalesced(messages);
  turns.forEach((turn, t) => {
    if (turn.role === 'user') {
      // Responses not right after a call turn answer nothing.
      if (turns[t - 1]?.role !== 'model' || turns[t - 1]!.calls.length === 0) for (const response of turn.responses) report(response.entry, { kind: 'displaced-result', callId: label(response), pointer: response.pointer });
      return;
    }
    if (turn.calls.length === 0) return;
    const next = turns[t + 1];
    const answered = new Array<boolean>(turn.calls.length).fill(false);
    for (const response of next?.role === 'user' ? next.responses : []) {
      const open = turn.calls.findIndex((call, k) => !answered[k] && answers(response, call));
      if (open !== -1) {
        answered[open] = true;
        continue;
      }
      const repeated = turn.calls.some((call) => answers(response, call));
      report(response.entry, { kind: repeated ? 'duplicate-result' : 'orphan-result', callId: label(response), pointer: response.pointer });
    }
    turn.calls.forEach((call, k) => {
      if (!answered[k]) report(call.entry, { kind: 'missing-result', callId: label(call), pointer: call.pointer });
    });
  });
  return problems;
}

function coalesced(messages: Iterable<ReplayedMessage>): Turn[] {
  const turns: Turn[] = [];
  const push = (turn: Turn) => {
    const last = turns.at(-1);
    if (last?.role !== turn.role) return void turns.push(turn);
    last.calls.push(...turn.calls);
    last.responses.push(...turn.responses);
  };
  for (const { entry, summary } of messages) {
    if (!summary.sent) continue;
    if (summary.type === 'user') {
      push({ role: 'user', calls: [], responses: summary.responses.map((response) => ({ ...response, entry })) });
      continue;
    }
    push({ role: 'model', calls: summary.calls.map((call) => ({ ...call, entry })), responses: [] });
    const results = summary.calls.flatMap((call) => call.responses.map((response) => ({ ...response, entry })));
    if (results.length > 0) push({ role: 'user', calls: [], responses: results });
  }
  return turns;
}

/** A response answers a call with its id, or, when either has none, with its name (as the client pairs them, `ensureStableToolIds`). */
function answers(response: ResponsePart, call: CallPart): boolean {
  if (response.id !== undefined && call.id !== undefined) return response.id === call.id;
  return response.name === call.name;
}

function label(part: ResponsePart): string {
  return part.id ?? part.name ?? '(unnamed)';
}
