import type { Entry } from '../../model/entry.js';
import { addSize } from '../../model/size/facts.js';
import { documentRef } from '../images.js';
import { isObject, withUtf8Fields, type Json } from '../json.js';
import { addContent, addString, jsonSize, textBytes, usageTotal } from '../json-size.js';
import { indexedPointers } from '../intern.js';

const blockPointer = indexedPointers('/message/content');

/** Images and documents are noted with their refs, not as text. */
const isMedia = (block: Json) => block.type === 'image' || block.type === 'document';

/**
 * What a Claude Code message line sends, by kind (see Entry.sizeBytes), and the usage its response
 * recorded. Anthropic's content blocks: the same shapes in every line that holds them.
 */
export function noteClaudeCodeSize(message: Json, entry: Entry, latin1: boolean): void {
  const usage = message.usage;
  if (entry.role === 'assistant' && isObject(usage)) entry.usage = usageTotal(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens);
  const content = message.content;
  if (typeof content === 'string') {
    addString(entry, 'text', content, '/message/content', latin1);
    return;
  }
  if (!Array.isArray(content)) return;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block)) continue;
    switch (block.type) {
      case 'text':
        addString(entry, 'text', block.text, blockPointer(i), latin1);
        break;
      case 'thinking':
        addSize(entry, 'thinking', typeof block.thinking === 'string' ? textBytes(block.thinking, latin1) : 0);
        addSize(entry, 'signature', typeof block.signature === 'string' ? textBytes(block.signature, latin1) : 0);
        break;
      case 'redacted_thinking':
        addSize(entry, 'thinking', typeof block.data === 'string' ? textBytes(block.data, latin1) : 0);
        break;
      case 'tool_use':
        addSize(entry, 'toolCall', (typeof block.name === 'string' ? textBytes(block.name, latin1) : 0) + jsonSize(block.input, latin1));
        break;
      case 'tool_result':
        addContent(entry, 'toolResult', block.content, `${blockPointer(i)}/content`, latin1, isMedia);
        noteDocuments(block.content, entry, i, latin1, true);
        break;
      case 'image':
        break;
      case 'document':
        noteDocuments([block], entry, i, latin1, false);
        break;
      default:
        addSize(entry, 'other', jsonSize(block, latin1));
    }
  }
  for (const image of entry.images ?? []) addSize(entry, 'image', image.base64Length ?? 0);
  for (const document of entry.documents ?? []) addSize(entry, 'document', document.base64Length);
}

/** PDFs with their bytes in the line (`{type:"document", source:{type:"base64", media_type, data}}`). */
function noteDocuments(blocks: unknown, entry: Entry, blockIndex: number, latin1: boolean, inToolResult: boolean): void {
  if (!Array.isArray(blocks)) return;
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k];
    if (!isObject(block) || block.type !== 'document' || !isObject(block.source) || block.source.type !== 'base64') continue;
    const source = latin1 ? withUtf8Fields(block.source) : block.source;
    const pointer = inToolResult ? `${blockPointer(blockIndex)}/content/${k}` : blockPointer(blockIndex);
    const document = documentRef(source.data, source.media_type, pointer, blockIndex, inToolResult);
    if (document !== undefined) entry.documents = [...(entry.documents ?? []), document];
  }
}
