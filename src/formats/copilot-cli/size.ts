import type { Entry } from '../../model/entry.js';
import { addSize } from '../../model/size/facts.js';
import { isObject, type Json } from '../json.js';
import { addString, jsonSize, textBytes, usageTotal } from '../json-size.js';

/**
 * What a Copilot CLI event sends (see Entry.sizeBytes): a prompt, an answer's text, reasoning
 * and calls, a tool's result content (its `detailedContent` is shown, never sent), a summary.
 */
export function noteCopilotSize(data: Json, entry: Entry, latin1: boolean): void {
  switch (entry.kind === 'compaction' ? 'compaction' : entry.role) {
    case 'compaction':
      addString(entry, 'text', data.summaryContent, '/data/summaryContent', latin1);
      return;
    case 'user':
      addString(entry, 'text', data.content, '/data/content', latin1);
      return;
    case 'assistant':
      addString(entry, 'text', data.content, '/data/content', latin1);
      if (typeof data.reasoningText === 'string') addSize(entry, 'thinking', textBytes(data.reasoningText, latin1));
      if (Array.isArray(data.toolRequests)) {
        for (const request of data.toolRequests) {
          if (isObject(request)) addSize(entry, 'toolCall', (typeof request.name === 'string' ? textBytes(request.name, latin1) : 0) + jsonSize(request.arguments, latin1));
        }
      }
      return;
    case 'toolResult': {
      const result = data.result;
      if (isObject(result)) addString(entry, 'toolResult', result.content, '/data/result/content', latin1);
      else if (isObject(data.error)) addString(entry, 'toolResult', data.error.message, '/data/error/message', latin1);
    }
  }
}

/** A `session.usage_record`'s input tokens: the request one response answered. */
export function copilotUsage(data: Json): number | undefined {
  const usage = data.usage;
  return isObject(usage) ? usageTotal(usage.inputTokens, usage.cacheReadTokens, usage.cacheWriteTokens) : undefined;
}
