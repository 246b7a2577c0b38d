import type { LineConversation, LineText, TranscriptFormat } from '../format.js';
import { isObject } from '../json.js';
import { partsText } from './item.js';
import { locate } from './locate.js';
import type { ShapeProvider } from './shape.js';

export type { ShapeProvider } from './shape.js';

/**
 * Provider request and dataset files: every line is one whole conversation in a provider's
 * request shape (fine-tuning and evaluation datasets, logged proxy requests). Each line is
 * judged and repaired on its own; no line answers another's calls.
 */
export const requestsFormat: TranscriptFormat = {
  name: 'requests',
  detect: (value) => locate(value) !== undefined,
  isRecord: (value) => locate(value) !== undefined,
  // Lines are read through conversationOf; a line as a whole is no entry of any conversation.
  createDecoder: () => ({ decode: () => { throw new Error('request lines are decoded per conversation'); }, state: () => undefined }),
  encoder: {
    apply: () => undefined,
    newId: (seed) => seed,
    create: () => {
      throw new Error('request lines are repaired per conversation');
    },
  },
  nothingToCanonicalize: 'each request shape has one form for a tool call and one for its result',
  readText,
  copyKey: (value) => JSON.stringify(value),
  recoverLinks: () => undefined,
  conversationOf,
};

/** Which provider a parsed line's request talks to, when it is a request. */
export function shapeProvider(value: unknown): ShapeProvider | undefined {
  return locate(value)?.shape.provider;
}

function conversationOf(value: unknown): LineConversation | undefined {
  const found = locate(value);
  if (found === undefined) return undefined;
  const { shape, request, at } = found;
  const pointer = `${at}/${shape.list}`;
  return {
    provider: shape.provider,
    pointer,
    items: request[shape.list] as unknown[],
    semantics: shape.semantics,
    createDecoder: () => shape.createDecoder(pointer),
    encoder: shape.encoder,
    replace(items) {
      // The same list, refilled: a span-preserving writer then keeps its spacing.
      const list = request[shape.list] as unknown[];
      const arranged = shape.arrange?.(items) ?? items;
      list.length = 0;
      for (const item of arranged) list.push(item);
    },
  };
}

/** The conversation's text, for the judge: every item's text parts, one per line. */
function readText(value: unknown): LineText {
  const found = locate(value);
  const items = found === undefined ? [] : (found.request[found.shape.list] as unknown[]);
  const texts: string[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const text = partsText(item.content ?? item.parts);
    if (text !== '') texts.push(text);
  }
  return { text: texts.join('\n'), toolNames: [] };
}
