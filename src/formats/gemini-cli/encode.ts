import type { KeptHistoryProblem } from '../../model/entry.js';
import type { Encoder } from '../format.js';
import { isObject, type Json } from '../json.js';
import { CANCELLED_ERROR } from './records.js';

/**
 * Repairs are written into the copy of each message that wins, where it sits (its own line, or
 * its place in a `$set.messages` list): re-appending a fixed copy would do too, but would leave
 * the broken copy as the one every other reader of the log finds. Nothing else in the line moves.
 */
export const geminiCliEncoder: Encoder = {
  apply(value, edits) {
    if (!isObject(value)) return;
    for (const edit of edits) {
      if (edit.kind === 'fix-kept-history' && edit.problems !== undefined) mend(value, edit.problems, edit.mode);
      if (edit.kind === 'drop-placeholder-turns') dropMessages(value, edit.pointers);
    }
  },
  // Gemini CLI writes no line a repair adds: it fixes messages in place.
  newId: (seed) => seed,
  create: () => ({}),
};

/** A message's place: the line itself, or an index in the line's list. */
interface Place {
  list?: unknown[];
  index: number;
  message: Json;
}

function mend(line: Json, problems: readonly KeptHistoryProblem[], mode: 'discard' | 'synthetic'): void {
  const byMessage = new Map<string, Array<{ problem: KeptHistoryProblem; rest: string[] }>>();
  for (const problem of problems) {
    const match = /^((?:\/\$set)?\/messages\/\d+)?(\/.*)$/.exec(problem.pointer);
    if (match === null) continue;
    const key = match[1] ?? '';
    byMessage.set(key, [...(byMessage.get(key) ?? []), { problem, rest: match[2]!.slice(1).split('/') }]);
  }
  const drop = new Map<unknown[], Set<number>>();
  for (const [key, found] of byMessage) {
    const place = placeOf(line, key);
    if (place === undefined || !mendMessage(place.message, found, mode) || place.list === undefined) continue;
    // Earlier elements of the list under the same id were never sent (the last one wins): they go with it, or one would win again.
    const id = place.message.id;
    const gone = drop.get(place.list) ?? new Set<number>();
    place.list.forEach((message, k) => {
      if (k === place.index || (k < place.index && isObject(message) && message.id === id)) gone.add(k);
    });
    drop.set(place.list, gone);
  }
  for (const [list, gone] of drop) {
    const kept = list.filter((_, k) => !gone.has(k));
    list.splice(0, list.length, ...kept);
  }
}

/** Messages that go: from their list, or, alone on their line, emptied (a model message with nothing in it is never sent). */
function dropMessages(line: Json, pointers: readonly string[]): void {
  const drop = new Map<unknown[], Set<number>>();
  for (const pointer of pointers) {
    const place = placeOf(line, pointer);
    if (place === undefined) continue;
    if (place.list === undefined) place.message.content = '';
    else drop.set(place.list, (drop.get(place.list) ?? new Set()).add(place.index));
  }
  for (const [list, gone] of drop) list.splice(0, list.length, ...list.filter((_, k) => !gone.has(k)));
}

function indexOf(key: string): number {
  return key === '' ? -1 : Number(key.slice(key.lastIndexOf('/') + 1));
}

function placeOf(line: Json, key: string): Place | undefined {
  if (key === '') return { index: -1, message: line };
  const list = key.startsWith('/$set') ? (isObject(line.$set) ? line.$set.messages : undefined) : line.messages;
  const index = indexOf(key);
  if (!Array.isArray(list) || !isObject(list[index])) return undefined;
  return { list, index, message: list[index] };
}

/** Mends one message; true when nothing is left of it to send. */
function mendMessage(message: Json, found: Array<{ problem: KeptHistoryProblem; rest: string[] }>, mode: 'discard' | 'synthetic'): boolean {
  const dropCalls = new Set<number>();
  const dropParts = new Set<number>();
  const dropResultParts = new Map<number, Set<number>>();
  for (const { problem, rest } of found) {
    const [field, at, sub, part] = rest;
    const index = Number(at);
    if (problem.kind === 'missing-result' && field === 'toolCalls') {
      if (mode === 'discard') dropCalls.add(index);
      else answerCancelled(message, index);
    } else if (problem.kind === 'missing-result' && field === 'content') {
      // A call written as a content part: only dropping it pairs the turn without inventing a call record.
      dropParts.add(index);
    } else if (field === 'content') dropParts.add(index);
    else if (field === 'toolCalls' && sub === 'result' && part !== undefined) {
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
  if (dropParts.size > 0) message.content = Array.isArray(message.content) ? message.content.filter((_, k) => !dropParts.has(k)) : [];
  // A message with nothing left to send goes from its list; alone on its line it stays, empty, and the client skips it.
  return (dropCalls.size > 0 || dropParts.size > 0) && nothingLeft(message);
}

/** The result the client itself records for a call it cancels (`createCancelledResult`). */
function answerCancelled(message: Json, index: number): void {
  const record = Array.isArray(message.toolCalls) ? message.toolCalls[index] : undefined;
  if (!isObject(record)) return;
  const response: Json = {};
  if (typeof record.id === 'string') response.id = record.id;
  response.name = typeof record.name === 'string' ? record.name : '';
  response.response = { error: CANCELLED_ERROR };
  record.status = 'cancelled';
  record.result = [{ functionResponse: response }];
}

function nothingLeft(message: Json): boolean {
  const content = message.content;
  const empty = content === undefined || content === '' || (Array.isArray(content) && content.length === 0);
  const calls = Array.isArray(message.toolCalls) && message.toolCalls.length > 0;
  const thoughts = Array.isArray(message.thoughts) && message.thoughts.length > 0;
  return empty && !calls && !thoughts;
}
