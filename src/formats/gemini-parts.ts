import type { EntryEdit } from '../model/edits.js';
import type { Entry, ToolCallRef, ToolResultRef } from '../model/entry.js';
import { isBlank, isObject, nonEmptyString, withUtf8Fields, type Json } from './json.js';

/**
 * Gemini `Content` parts (`{text}`, `{functionCall}`, `{functionResponse}`, `thought` parts): the
 * shape of Gemini request lines, and of what Qwen Code records inside `message.parts`.
 */

/** A text part with nothing to read and nothing else in it (a signed empty thought part is not blank). */
export function isBlankPart(part: Json, latin1 = false): boolean {
  if (!isBlank(part.text, latin1)) return false;
  for (const key in part) if (key !== 'text') return false;
  return true;
}

/**
 * How a format reads the parts it holds: where each is, and what its calls, responses and images
 * are. Made once per decoder (the hot path): `index` is the entry's.
 */
export interface PartReader {
  pointer(i: number, index: number): string;
  call(call: Json, at: string, i: number, index: number): ToolCallRef;
  response(response: Json, at: string, i: number, index: number): ToolResultRef;
  /** Inline images, for a format whose images are judged. */
  image?(entry: Entry, data: Json, at: string, i: number): void;
}

/**
 * Fills an entry whose role is set from a Content's parts: a model turn's calls, a user turn's
 * responses (which make it a tool result), blank text parts and signed thoughts. `latin1`: the
 * line was read as latin1 (see Decoder.decode): a call's, a response's and an image's own string
 * fields are handed on read as UTF-8.
 */
export function readParts(entry: Entry, parts: readonly unknown[], read: PartReader, index: number, latin1 = false): void {
  const fields = latin1 ? withUtf8Fields : (value: Json) => value;
  entry.blockCount = parts.length;
  if (parts.length === 0) {
    entry.emptyContent = true;
    return;
  }
  const calls: ToolCallRef[] = [];
  const results: ToolResultRef[] = [];
  const blank: string[] = [];
  parts.forEach((part, i) => {
    if (!isObject(part)) return;
    const at = read.pointer(i, index);
    if (nonEmptyString(part.thoughtSignature) !== undefined) entry.signedThinking = true;
    if (entry.role === 'assistant' && isObject(part.functionCall)) calls.push(read.call(fields(part.functionCall), at, i, index));
    else if (entry.role === 'user' && isObject(part.functionResponse)) {
      if (results.length < i) entry.resultsAfterOther = true;
      results.push(read.response(fields(part.functionResponse), at, i, index));
    } else if (read.image !== undefined && isObject(part.inlineData)) read.image(entry, fields(part.inlineData), `${at}/inlineData`, i);
    else if (isBlankPart(part, latin1)) {
      blank.push(at);
      if (part.text !== '') (entry.whitespaceTextBlocks ??= []).push(at);
    }
  });
  if (calls.length > 0) entry.toolCalls = calls;
  if (results.length > 0) {
    entry.role = 'toolResult';
    entry.toolResults = results;
    // One response in the turn: its name can be filled from the call without naming which.
    if (results.length === 1) results[0]!.namePointer = `${results[0]!.pointer}/functionResponse/name`;
  }
  if (blank.length === parts.length && entry.role === 'user') entry.blankText = true;
  else if (blank.length > 0) entry.blankTextBlocks = blank;
}

/**
 * Applies one neutral edit to a Content's parts, in place. `blank` is what a blank user message
 * becomes. An id is set only on a part that has one: where calls carry no ids (Gemini request
 * lines), the one the model gave stays out of the file.
 */
export function editParts(content: Json, edit: EntryEdit, blank: string): void {
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const index = 'block' in edit ? edit.block : 'pointer' in edit ? Number(edit.pointer.slice(edit.pointer.lastIndexOf('/') + 1)) : -1;
  const part = isObject(parts[index]) ? (parts[index] as Json) : undefined;
  const call = isObject(part?.functionCall) ? part.functionCall : undefined;
  const response = isObject(part?.functionResponse) ? part.functionResponse : undefined;
  switch (edit.kind) {
    case 'set-call-id':
      if (call !== undefined && 'id' in call) call.id = edit.id;
      return;
    case 'set-call-name':
      if (call !== undefined) call.name = edit.name;
      return;
    case 'set-result-id':
      if (response !== undefined && 'id' in response) response.id = edit.id;
      return;
    case 'set-tool-name': {
      const only = parts.filter((item) => isObject(item) && isObject(item.functionResponse));
      if (only.length === 1) (only[0] as { functionResponse: Json }).functionResponse.name = edit.name;
      return;
    }
    case 'drop-blocks':
      content.parts = parts.filter((_, k) => !edit.blocks.includes(k));
      return;
    case 'results-first': {
      const isResponse = (item: unknown) => isObject(item) && isObject(item.functionResponse);
      content.parts = [...parts.filter(isResponse), ...parts.filter((item) => !isResponse(item))];
      return;
    }
    case 'fill-blank-user': {
      const kept = parts.filter((item) => !(isObject(item) && isBlankPart(item)));
      content.parts = kept.length > 0 ? kept : [{ text: blank }];
      return;
    }
    case 'trim-final-text': {
      const last: unknown = parts.at(-1);
      if (isObject(last) && typeof last.text === 'string') last.text = last.text.trimEnd();
      return;
    }
    case 'drop-signed-reasoning':
      content.parts = unsigned(parts);
      return;
    default:
      return;
  }
}

/**
 * A model turn's parts without Gemini's signatures, for another provider: thought parts go, and
 * the signature a call or text part carries; thoughts stay (unsigned) when nothing else would.
 */
export function unsigned(parts: unknown[]): unknown[] {
  const said = parts.filter((part) => !(isObject(part) && part.thought === true));
  return (said.length > 0 ? said : parts).map((part) => {
    if (!isObject(part) || !('thoughtSignature' in part)) return part;
    const { thoughtSignature: _signature, ...rest } = part;
    return rest;
  });
}
