import type { KeptHistoryProblem } from '../../model/entry.js';
import type { Encoder } from '../format.js';
import { isObject, type Json } from '../json.js';
import { CANCELLED_ERROR } from './records.js';

/**
 * Repairs are written into the copy of each message that wins, where it sits (its own line, its
 * place in a `$set.messages` list, or in a legacy record's or a checkpoint's list): re-appending a
 * fixed copy would do too, but would leave the broken copy as the one every other reader of the
 * log finds. Nothing else in the line moves.
 */
export const geminiCliEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value) && !Array.isArray(value)) return;
    for (const edit of edits) {
      if (edit.kind === 'fix-kept-history' && edit.problems !== undefined) mend(value, edit.problems, edit.mode);
      if (edit.kind === 'drop-placeholder-turns') dropMessages(value, edit.pointers);
    }
  },
  // Gemini CLI writes no line a repair adds: it fixes messages in place.
  newId: (seed) => seed,
  create: () => ({}),
};

type Root = Json | unknown[];
type Found = Array<{ problem: KeptHistoryProblem; rest: string[] }>;

/** A message's place: the line itself, or an index in a list of the line. */
interface Place {
  list?: unknown[];
  index: number;
  message: Json;
}

/** A message's pointer, and the rest of a pointer into it. */
const MESSAGE = /^((?:\/\$set)?\/messages\/\d+|(?:\/history)?\/\d+)?(\/.*)?$/;

function mend(root: Root, problems: readonly KeptHistoryProblem[], mode: 'discard' | 'synthetic'): void {
  const byMessage = new Map<string, Found>();
  for (const problem of problems) {
    const match = MESSAGE.exec(problem.pointer);
    if (match === null) continue;
    const key = match[1] ?? '';
    byMessage.set(key, [...(byMessage.get(key) ?? []), { problem, rest: (match[2] ?? '').slice(1).split('/') }]);
  }
  const drop = new Map<unknown[], Set<number>>();
  const answers = new Map<unknown[], Map<number, Json[]>>();
  for (const [key, found] of byMessage) {
    const place = placeOf(root, key);
    if (place === undefined) continue;
    const { empty, responses } = mendMessage(place.message, found, mode);
    if (place.list === undefined) continue;
    if (responses.length > 0) answers.set(place.list, (answers.get(place.list) ?? new Map()).set(place.index, responses));
    if (!empty) continue;
    // Earlier elements of the list under the same id were never sent (the last one wins): they go with it, or one would win again.
    const id = place.message.id;
    const gone = drop.get(place.list) ?? new Set<number>();
    place.list.forEach((message, k) => {
      if (k === place.index || (id !== undefined && k < place.index && isObject(message) && message.id === id)) gone.add(k);
    });
    drop.set(place.list, gone);
  }
  for (const list of new Set([...drop.keys(), ...answers.keys()])) rebuild(list, drop.get(list) ?? new Set(), answers.get(list) ?? new Map());
}

/**
 * A list without the messages that go, and with the responses for calls written as content parts
 * (a checkpoint's) in the user turn after their call turn: a new one when the next is not a user turn.
 */
function rebuild(list: unknown[], gone: Set<number>, answers: Map<number, Json[]>): void {
  const kept: unknown[] = [];
  list.forEach((message, k) => {
    if (!gone.has(k)) kept.push(message);
    const responses = answers.get(k);
    if (responses === undefined) return;
    const next = list[k + 1];
    if (!gone.has(k + 1) && isObject(next) && next.role === 'user' && Array.isArray(next.parts)) next.parts.unshift(...responses);
    else kept.push({ role: 'user', parts: responses });
  });
  list.splice(0, list.length, ...kept);
}

/** Messages that go: from their list, or, alone on their line, emptied (a model message with nothing in it is never sent). */
function dropMessages(root: Root, pointers: readonly string[]): void {
  const drop = new Map<unknown[], Set<number>>();
  for (const pointer of pointers) {
    const place = placeOf(root, pointer);
    if (place === undefined) continue;
    if (place.list === undefined) place.message.content = '';
    else drop.set(place.list, (drop.get(place.list) ?? new Set()).add(place.index));
  }
  for (const [list, gone] of drop) list.splice(0, list.length, ...list.filter((_, k) => !gone.has(k)));
}

function placeOf(root: Root, key: string): Place | undefined {
  if (key === '') return isObject(root) ? { index: -1, message: root } : undefined;
  const index = Number(key.slice(key.lastIndexOf('/') + 1));
  const list = Array.isArray(root) ? root : key.startsWith('/$set') ? (isObject(root.$set) ? root.$set.messages : undefined) : key.startsWith('/history') ? root.history : root.messages;
  if (!Array.isArray(list) || !isObject(list[index])) return undefined;
  return { list, index, message: list[index] };
}

/** Mends one message: whether nothing is left of it to send, and the responses a checkpoint's turn after it takes. */
function mendMessage(message: Json, found: Found, mode: 'discard' | 'synthetic'): { empty: boolean; responses: Json[] } {
  const dropCalls = new Set<number>();
  const dropParts = new Map<string, Set<number>>();
  const dropResultParts = new Map<number, Set<number>>();
  const responses: Json[] = [];
  for (const { problem, rest } of found) {
    const [field, at, sub, part] = rest;
    const index = Number(at);
    if (problem.kind === 'missing-result' && field === 'toolCalls') {
      if (mode === 'discard') dropCalls.add(index);
      else answerCancelled(message, index);
    } else if (problem.kind === 'missing-result' && field === 'parts' && mode === 'synthetic') {
      const call = Array.isArray(message.parts) ? message.parts[index] : undefined;
      if (isObject(call) && isObject(call.functionCall)) responses.push({ functionResponse: cancelled(call.functionCall) });
    } else if ((field === 'content' || field === 'parts') && at !== undefined) {
      dropParts.set(field, (dropParts.get(field) ?? new Set()).add(index));
    } else if (field === 'toolCalls' && sub === 'result' && part !== undefined) {
      dropResultParts.set(index, (dropResultParts.get(index) ?? new Set()).add(Number(part)));
    }
  }
  for (const [call, parts] of dropResultParts) {
    const record = Array.isArray(message.toolCalls) ? message.toolCalls[call] : undefined;
    if (isObject(record) && Array.isArray(record.result)) record.result = record.result.filter((_, k) => !parts.has(k));
  }
  if (dropCalls.size > 0 && Array.isArray(message.toolCalls)) {
    const kept = message.toolCalls.filter((_, k) => !dropCalls.has(k));
    if (kept.length > 0) message.toolCalls = kept;
    else delete message.toolCalls;
  }
  for (const [field, parts] of dropParts) message[field] = Array.isArray(message[field]) ? (message[field] as unknown[]).filter((_, k) => !parts.has(k)) : [];
  // A message with nothing left to send goes from its list; alone on its line it stays, empty, and the client skips it.
  return { empty: (dropCalls.size > 0 || dropParts.size > 0) && nothingLeft(message), responses };
}

/** The result the client itself records for a call it cancels (`createCancelledResult`). */
function answerCancelled(message: Json, index: number): void {
  const record = Array.isArray(message.toolCalls) ? message.toolCalls[index] : undefined;
  if (!isObject(record)) return;
  record.status = 'cancelled';
  record.result = [{ functionResponse: cancelled(record) }];
}

function cancelled(call: Json): Json {
  const response: Json = {};
  if (typeof call.id === 'string') response.id = call.id;
  response.name = typeof call.name === 'string' ? call.name : '';
  response.response = { error: CANCELLED_ERROR };
  return response;
}

function nothingLeft(message: Json): boolean {
  const empty = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  const calls = Array.isArray(message.toolCalls) && message.toolCalls.length > 0;
  const thoughts = Array.isArray(message.thoughts) && message.thoughts.length > 0;
  return empty(message.content) && empty(message.parts) && !calls && !thoughts;
}
