import type { Entry } from '../../model/entry.js';
import { addSize } from '../../model/size/facts.js';
import { isObject, type Json } from '../json.js';
import { addContent, addString, jsonSize, textBytes, usageTotal } from '../json-size.js';

const isImage = (block: Json) => block.type === 'image';

/** What a pi message sends, by kind (see Entry.sizeBytes); images are noted with their refs. */
export function notePiMessageSize(message: Json, entry: Entry, latin1: boolean): void {
  switch (message.role) {
    case 'user':
      addContent(entry, 'text', message.content, '/message/content', latin1, isImage);
      break;
    case 'toolResult':
      addContent(entry, 'toolResult', message.content, '/message/content', latin1, isImage);
      break;
    case 'assistant':
      noteAssistant(message, entry, latin1);
      break;
    case 'bashExecution':
      addString(entry, 'other', message.command, '/message/command', latin1);
      addString(entry, 'other', message.output, '/message/output', latin1);
      break;
    default:
      addContent(entry, 'other', message.content, '/message/content', latin1, isImage);
  }
  for (const image of entry.images ?? []) addSize(entry, 'image', image.base64Length ?? 0);
}

function noteAssistant(message: Json, entry: Entry, latin1: boolean): void {
  const usage = message.usage;
  if (isObject(usage)) entry.usage = usageTotal(usage.input, usage.cacheRead, usage.cacheWrite);
  const content = message.content;
  if (!Array.isArray(content)) return;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block)) continue;
    if (block.type === 'thinking') {
      addSize(entry, 'thinking', typeof block.thinking === 'string' ? textBytes(block.thinking, latin1) : 0);
      // For OpenAI Responses models this holds the whole reasoning item, encrypted content included.
      addSize(entry, 'signature', typeof block.thinkingSignature === 'string' ? textBytes(block.thinkingSignature, latin1) : 0);
    }
    else if (block.type === 'text') addSize(entry, 'text', typeof block.text === 'string' ? textBytes(block.text, latin1) : 0);
    else if (typeof block.name === 'string' && ('arguments' in block || 'input' in block)) {
      // A call cut short keeps what streamed in partialJson: counted too, as the larger of the two may be what is sent.
      const partial = typeof block.partialJson === 'string' ? textBytes(block.partialJson, latin1) : 0;
      addSize(entry, 'toolCall', textBytes(block.name, latin1) + Math.max(partial, jsonSize(block.arguments ?? block.input, latin1)));
    }
    else addSize(entry, 'other', jsonSize(block, latin1));
  }
}

/** A compaction's or branch summary's text, which the agent sends as a user message. */
export function notePiSummarySize(value: Json, entry: Entry, latin1: boolean): void {
  addString(entry, 'text', value.summary, '/summary', latin1);
}

/** An extension's message, sent as user content. */
export function notePiCustomSize(value: Json, entry: Entry, latin1: boolean): void {
  addContent(entry, 'other', value.content, '/content', latin1, isImage);
}
