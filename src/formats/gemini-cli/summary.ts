import { isBlankPart } from '../gemini-parts.js';
import { isObject, nonEmptyString, textIn, type Json } from '../json.js';
import { contentText, INTERRUPTED_PLACEHOLDER, isCompactionSummary, isIgnoredUserText, partsOf, responseOf } from './records.js';
import { messageSize, type MessageSize } from './size.js';

/** A `functionResponse` part the client sends: what it names, and where it sits under its message. */
export interface ResponsePart {
  id?: string;
  name?: string;
  pointer: string;
}

/** A `functionCall` the client sends, with the responses its recorded result turns into. */
export interface CallPart extends ResponsePart {
  responses: ResponsePart[];
}

/**
 * What the judge needs of one message, read once when its copy is decoded, so the file's
 * messages are never held: whether the client sends it, its calls, its response parts.
 */
export interface MessageSummary {
  type: string;
  /** Where the message sits in its line ('' for a line of its own). */
  pointer: string;
  /** The client turns it into a turn of the request (`convertSessionToClientHistory`). */
  sent: boolean;
  /** A model message: its calls (`toolCalls`, or `functionCall` parts of its content). */
  calls: CallPart[];
  /** A user message: the `functionResponse` parts of its content. */
  responses: ResponsePart[];
  /** A model message that is only the client's own interrupted-response placeholder. */
  placeholder: boolean;
  /** How many parts of its turn are sent once thoughts are stripped (`stripThoughts`): a model message with none makes no turn. */
  parts: number;
  /** Blank text parts sent: where, and their place among the sent parts. Only when there are some. */
  blank?: BlankPart[];
  /** The first sent part that carries a `thoughtSignature`. Only when there is one. */
  signed?: { pointer: string; part: number };
  /** A part the client takes for an empty response (`isValidContent`): it leaves the whole run of model turns out. */
  invalid?: true;
  /** What the message sends, by kind, and the usage and model its response recorded (see Entry.sizeBytes): written into its entry once the replay is settled. */
  size?: MessageSize;
  /** The summary turn of a compaction transcript-doctor wrote (see compaction.ts): its timestamp. */
  compactedAt?: string;
}

export interface BlankPart {
  pointer: string;
  part: number;
  whitespace: boolean;
}

function isEmpty(part: Json): boolean {
  for (const _ in part) return false;
  return true;
}

/** Reads a message record at `base` (its JSON Pointer inside the line) the way the client turns it into turns. */
export function summarize(message: Json, base: string, latin1 = false): MessageSummary {
  const type = typeof message.type === 'string' ? textIn(message.type, latin1) : '';
  const summary: MessageSummary = { type, pointer: base, sent: false, calls: [], responses: [], placeholder: false, parts: 0 };
  if (type === 'user') {
    summary.sent = !isIgnoredUserText(textIn(contentText(message.content), latin1));
    if (!summary.sent) return summary;
    summary.size = messageSize(message, latin1);
    if (isCompactionSummary(message) && typeof message.timestamp === 'string') summary.compactedAt = textIn(message.timestamp, latin1);
    summary.responses = contentResponses(message.content, `${base}/content`, latin1);
    const parts = partsOf(message.content);
    const at = `${base}/content`;
    summary.parts = parts.length;
    parts.forEach((part, i) => markPart(summary, part, message.content, at, i, i, false, latin1));
  } else if (type === 'gemini') {
    readModel(message, base, summary, latin1);
    if (summary.sent) summary.size = messageSize(message, latin1);
  }
  return summary;
}

/**
 * Notes what the provider may refuse in part `i` of `content` (at `at`), sent as part `index` of
 * its turn: blank text (a model part of no text at all is not sent: the client drops the turn, see
 * `invalid`), a signature. Thought parts never get here: the client strips them before it sends.
 * A pointer is made only for what is noted: this runs for every part of every copy.
 */
function markPart(summary: MessageSummary, part: unknown, content: unknown, at: string, i: number, index: number, model: boolean, latin1 = false): void {
  if (!isObject(part)) return;
  if (model && isEmpty(part)) summary.invalid = true;
  if (isBlankPart(part, latin1)) {
    if (model && part.text === '') summary.invalid = true;
    else (summary.blank ??= []).push({ pointer: partPointer(content, at, i), part: index, whitespace: part.text !== '' });
  }
  if (model && summary.signed === undefined && nonEmptyString(part.thoughtSignature) !== undefined) summary.signed = { pointer: partPointer(content, at, i), part: index };
}

function readModel(message: Json, base: string, summary: MessageSummary, latin1: boolean): void {
  const content = message.content ? partsOf(message.content) : [];
  const toolCalls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  const thoughts = Array.isArray(message.thoughts) ? message.thoughts.length : 0;
  // Calls or thoughts written as parts of the content: the client sends the content as it is, and no calls from `toolCalls`.
  const asParts = content.some((part) => isObject(part) && (Boolean(part.functionCall) || Boolean(part.thought)));
  const modelParts = asParts ? content.length : thoughts + content.length + toolCalls.length;
  summary.sent = modelParts > 0;
  if (!summary.sent) return;
  summary.placeholder = toolCalls.length === 0 && !asParts && isPlaceholder(contentText(message.content), latin1);
  // Sent as the client sends them once thoughts are stripped: the parts of the content, then one per call unless calls are among them.
  let sent = 0;
  const at = `${base}/content`;
  content.forEach((part, i) => {
    if (isObject(part) && part.thought) return;
    markPart(summary, part, message.content, at, i, sent, true, latin1);
    sent += 1;
  });
  summary.parts = sent + (asParts ? 0 : toolCalls.length);
  if (asParts) {
    content.forEach((part, i) => {
      if (isObject(part) && isObject(part.functionCall)) summary.calls.push(call(part.functionCall, partPointer(message.content, `${base}/content`, i), [], latin1));
    });
  }
  toolCalls.forEach((record, i) => {
    if (!isObject(record)) return;
    const pointer = `${base}/toolCalls/${i}`;
    const responses = resultResponses(record, pointer, latin1);
    if (asParts) {
      // Their results are still sent, answering the calls of the content.
      summary.calls.at(-1)?.responses.push(...responses);
      return;
    }
    summary.calls.push(call(record, pointer, responses, latin1));
  });
}

/** The response parts a recorded result becomes: a string is one, a list holds its own parts, any other object is sent as it is. */
function resultResponses(record: Json, pointer: string, latin1: boolean): ResponsePart[] {
  const result = record.result;
  if (!result) return [];
  if (typeof result === 'string') return [named(record, `${pointer}/result`, latin1)];
  if (Array.isArray(result)) return contentResponses(result, `${pointer}/result`, latin1);
  const response = responseOf(result);
  return response === undefined ? [] : [named(response, `${pointer}/result`, latin1)];
}

function contentResponses(content: unknown, pointer: string, latin1: boolean): ResponsePart[] {
  const responses: ResponsePart[] = [];
  partsOf(content).forEach((part, i) => {
    const response = responseOf(part);
    if (response !== undefined) responses.push(named(response, partPointer(content, pointer, i), latin1));
  });
  return responses;
}

/** A part's pointer: its index in a list, or the content itself when that is one part. */
function partPointer(content: unknown, pointer: string, index: number): string {
  return Array.isArray(content) ? `${pointer}/${index}` : pointer;
}

/** What a call or response names, at `pointer`; made directly, as a summary is made for every copy of every message. */
function named(value: Json, pointer: string, latin1 = false): ResponsePart {
  const part: ResponsePart = { pointer };
  const id = nonEmptyString(value.id);
  if (id !== undefined) part.id = textIn(id, latin1);
  if (typeof value.name === 'string') part.name = textIn(value.name, latin1);
  return part;
}

function call(value: Json, pointer: string, responses: ResponsePart[], latin1 = false): CallPart {
  const part = named(value, pointer, latin1) as CallPart;
  part.responses = responses;
  return part;
}

/** A content of a checkpoint: a turn sent as it is, its calls and responses its `functionCall` and `functionResponse` parts. */
export function summarizeContent(content: Json, base: string): MessageSummary {
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const model = content.role === 'model';
  const summary: MessageSummary = { type: model ? 'gemini' : 'user', pointer: base, sent: parts.length > 0, calls: [], responses: [], placeholder: false, parts: 0 };
  const at = `${base}/parts`;
  parts.forEach((part, i) => {
    if (!isObject(part)) return;
    if (!part.thought) markPart(summary, part, parts, at, i, summary.parts++, model);
    const pointer = `${at}/${i}`;
    if (model && isObject(part.functionCall)) summary.calls.push(call(part.functionCall, pointer, []));
    const response = responseOf(part);
    if (!model && response !== undefined) summary.responses.push(named(response, pointer));
  });
  summary.placeholder = model && parts.length === 1 && contentText(parts).trim() === INTERRUPTED_PLACEHOLDER;
  return summary;
}

/** Only the client's placeholder, trimmed: text that does not hold it never is, whichever way it was read. */
function isPlaceholder(text: string, latin1: boolean): boolean {
  if (latin1 && !text.includes(INTERRUPTED_PLACEHOLDER)) return false;
  return textIn(text, latin1).trim() === INTERRUPTED_PLACEHOLDER;
}
