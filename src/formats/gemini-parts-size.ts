import type { Entry } from '../model/entry.js';
import { addSize, LONG_STRING, noteString } from '../model/size/facts.js';
import { isObject } from './json.js';
import { jsonSize, textBytes } from './json-size.js';

/**
 * What Gemini `Content` parts send, by kind (see Entry.sizeBytes): text (thought parts as
 * thinking), a call's name and arguments, a response, inline data as its base64. `pointer` gives
 * a part's pointer, made only for a string long enough to note.
 */
export function addPartsSize(entry: Entry, parts: readonly unknown[], latin1: boolean, pointer: (i: number) => string): void {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!isObject(part)) continue;
    if (typeof part.thoughtSignature === 'string') addSize(entry, 'signature', textBytes(part.thoughtSignature, latin1));
    if (typeof part.text === 'string') {
      addSize(entry, part.thought === true ? 'thinking' : 'text', textBytes(part.text, latin1));
      if (part.text.length >= LONG_STRING) noteString(entry, `${pointer(i)}/text`, part.text.length);
    } else if (isObject(part.functionCall)) {
      const call = part.functionCall;
      addSize(entry, 'toolCall', (typeof call.name === 'string' ? textBytes(call.name, latin1) : 0) + jsonSize(call.args, latin1));
    } else if (isObject(part.functionResponse)) {
      addSize(entry, 'toolResult', jsonSize(part.functionResponse.response, latin1));
    } else if (isObject(part.inlineData) && typeof part.inlineData.data === 'string') {
      addSize(entry, part.inlineData.mimeType === 'application/pdf' ? 'document' : 'image', textBytes(part.inlineData.data, latin1));
    } else {
      addSize(entry, 'other', jsonSize(part, latin1));
    }
  }
}
