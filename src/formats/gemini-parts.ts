import type { EntryEdit } from '../model/edits.js';
import { isObject, type Json } from './json.js';

/**
 * Gemini `Content` parts (`{text}`, `{functionCall}`, `{functionResponse}`, `thought` parts): the
 * shape of Gemini request lines, and of what Qwen Code records inside `message.parts`.
 */

/** A text part with nothing to read and nothing else in it (a signed empty thought part is not blank). */
export function isBlankPart(part: Json): boolean {
  if (typeof part.text !== 'string' || part.text.trim() !== '') return false;
  for (const key in part) if (key !== 'text') return false;
  return true;
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
function unsigned(parts: unknown[]): unknown[] {
  const said = parts.filter((part) => !(isObject(part) && part.thought === true));
  return (said.length > 0 ? said : parts).map((part) => {
    if (!isObject(part) || !('thoughtSignature' in part)) return part;
    const { thoughtSignature: _signature, ...rest } = part;
    return rest;
  });
}
