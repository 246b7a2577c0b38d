import { BRIDGE_TEXTS, type NewLine } from '../../model/edits.js';
import type { KeptHistoryProblem } from '../../model/entry.js';
import type { Encoder } from '../format.js';
import { unsigned } from '../gemini-parts.js';
import { isObject, timestampOr, type Json } from '../json.js';
import { applySlimEdits } from '../slim-edits.js';
import type { SlimView } from '../slim-view.js';
import { uuidFrom } from '../codex/session-meta.js';
import { CANCELLED_ERROR, INTERRUPTED_PLACEHOLDER } from './records.js';

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
      if (edit.kind === 'drop-placeholder-turns' || edit.kind === 'drop-empty-turns') dropMessages(value, edit.pointers);
    }
    // A compaction empties the lists before its cut (drop-parts).
    applySlimEdits(value, edits, TEXT_ONLY);
  },
  newId: (seed) => seed,
  // The lines a repair adds: a user message before a model message of calls that opens the history, where it takes its place; the client's own closing turn after a history that ends on responses.
  create(line, source, at) {
    if (line.kind !== 'bridge' || !isObject(source)) return {};
    return line.closing ? closing(line, source, at) : continuing(source);
  },
};

/** Slim's stubs as Gemini text parts. */
const TEXT_ONLY: SlimView = { parts: () => [], textBlock: (_replaced, text) => ({ text }) };

/**
 * The model turn Gemini CLI itself adds in memory after a history that ends on function responses
 * (\`closeUnansweredToolResponseTurn\`: one text part, its interrupted-response placeholder), as a
 * message of the session, with the time and model of the message whose responses it follows.
 */
function closing(line: Extract<NewLine, { kind: 'bridge' }>, source: Json, at: Date): Json {
  const message = lastMessage(source);
  const made: Json = { id: uuidFrom(line.id ?? `closing:${line.timestampFrom}`), timestamp: timestampOr(message, at), type: 'gemini' };
  made.content = INTERRUPTED_PLACEHOLDER;
  made.thoughts = [];
  if (typeof message?.model === 'string') made.model = message.model;
  return made;
}

/** The message a line holds: itself, or the last of the list it sets. */
function lastMessage(source: Json): Json | undefined {
  if (typeof source.id === 'string') return source;
  const list = isObject(source.$set) ? source.$set.messages : source.messages;
  const last = Array.isArray(list) ? list.at(-1) : undefined;
  return isObject(last) ? last : undefined;
}

/** A user message in the client's shape (a checkpoint's content, or a session message) to put before `message`, OpenClaw's "(continue)". */
function continuing(message: Json): Json {
  const text = [{ text: BRIDGE_TEXTS.user }];
  if (message.role !== undefined) return { role: 'user', parts: text };
  const made: Json = { id: `continue-${String(message.id)}` };
  if (typeof message.timestamp === 'string') made.timestamp = message.timestamp;
  return { ...made, type: 'user', content: text };
}

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
    const found = { problem, rest: (match[2] ?? '').slice(1).split('/') };
    const earlier = byMessage.get(key);
    if (earlier === undefined) byMessage.set(key, [found]);
    else earlier.push(found);
  }
  const drop = new Map<unknown[], Set<number>>();
  const answers = new Map<unknown[], Map<number, Json[]>>();
  const before = new Map<unknown[], Map<number, Json>>();
  for (const [key, found] of byMessage) {
    const place = placeOf(root, key);
    if (place === undefined) continue;
    const opens = found.some(({ problem }) => problem.kind === 'calls-open-history');
    const { empty, responses } = mendMessage(place.message, found, mode);
    if (place.list === undefined) continue;
    if (opens && !empty) before.set(place.list, (before.get(place.list) ?? new Map()).set(place.index, continuing(place.message)));
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
  for (const list of new Set([...drop.keys(), ...answers.keys(), ...before.keys()])) rebuild(list, drop.get(list) ?? new Set(), answers.get(list) ?? new Map(), before.get(list) ?? new Map());
}

/**
 * A list without the messages that go, with the messages put before others, and with the
 * responses for calls written as content parts (a checkpoint's) in the user turn after their call
 * turn: a new one when the next is not a user turn.
 */
function rebuild(list: unknown[], gone: Set<number>, answers: Map<number, Json[]>, before: Map<number, Json>): void {
  const kept: unknown[] = [];
  list.forEach((message, k) => {
    const first = before.get(k);
    if (first !== undefined) kept.push(first);
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
  let emptied = false;
  let unsign = false;
  for (const { problem, rest } of found) {
    const [field, at, sub, part] = rest;
    const index = Number(at);
    if (problem.kind === 'calls-open-history') continue;
    if (problem.kind === 'result-name-mismatch' || problem.kind === 'result-name-missing') {
      setAt(message, rest, problem.callName);
    } else if (problem.kind === 'signed-reasoning') {
      unsign = true;
    } else if (problem.kind === 'blank-text' && at === undefined && field !== undefined) {
      // The whole content is the blank part (a string, or one part not in a list).
      message[field] = '';
      emptied = true;
    } else if (problem.kind === 'missing-result' && field === 'toolCalls') {
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
  if (unsign) unsignParts(message);
  // A message with nothing left to send goes from its list; alone on its line it stays, empty, and the client skips it.
  return { empty: (dropCalls.size > 0 || dropParts.size > 0 || emptied) && nothingLeft(message), responses };
}

/** Sets the member at `path` (segments under the message) when every step to it is there. */
function setAt(message: Json, path: string[], value: unknown): void {
  let at: unknown = message;
  for (const key of path.slice(0, -1)) at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  if (isObject(at) && typeof value === 'string') at[path.at(-1)!] = value;
}

/** The parts of a message (its content, or a checkpoint's parts) without Gemini's signatures, as for any Gemini content. */
function unsignParts(message: Json): void {
  const field = Array.isArray(message.parts) ? 'parts' : 'content';
  const parts = message[field];
  if (Array.isArray(parts)) message[field] = unsigned(parts);
  else if (isObject(parts)) message[field] = unsigned([parts])[0];
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
