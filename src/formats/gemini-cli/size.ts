import { Entry } from '../../model/entry.js';
import { addSize } from '../../model/size/facts.js';
import type { SizeKind, SizeParts } from '../../model/size/request-size.js';
import { addPartsSize } from '../gemini-parts-size.js';
import { isObject, textIn, type Json } from '../json.js';
import { jsonSize, textBytes, usageTotal } from '../json-size.js';
import { partsOf } from './records.js';

/** What one message record sends, by kind, with the usage and model its response recorded. */
export interface MessageSize {
  bytes: number;
  kind: SizeKind;
  parts?: SizeParts;
  usage?: number;
  /** When the message recording the usage was written: a summary turn written later makes it stale (see replay.ts). */
  usageAt?: string;
  model?: string;
}

const noPointer = () => '';

/**
 * A message as the client sends it: its content parts (thoughts stripped), and for a model
 * message each recorded call's name and arguments and its result. Made only for the copy of a
 * message that is summarised (the last one written).
 */
export function messageSize(message: Json, latin1: boolean): MessageSize | undefined {
  const tally = new Entry(-1, 0);
  const parts = partsOf(message.content).filter((part) => !(isObject(part) && part.thought === true));
  addPartsSize(tally, parts, latin1, noPointer);
  if (message.type === 'gemini') {
    if (Array.isArray(message.toolCalls)) {
      for (const call of message.toolCalls) {
        if (!isObject(call)) continue;
        addSize(tally, 'toolCall', (typeof call.name === 'string' ? textBytes(call.name, latin1) : 0) + jsonSize(call.args, latin1));
        if (call.result !== undefined && call.result !== null) addSize(tally, 'toolResult', jsonSize(call.result, latin1));
      }
    }
    if (isObject(message.tokens)) tally.usage = usageTotal(message.tokens.input);
  }
  if (tally.sizeKind === undefined && tally.usage === undefined) return undefined;
  const size: MessageSize = { bytes: tally.sizeBytes, kind: tally.sizeKind ?? 'other' };
  if (tally.sizeParts !== undefined) size.parts = tally.sizeParts;
  if (tally.usage !== undefined) size.usage = tally.usage;
  if (tally.usage !== undefined && typeof message.timestamp === 'string') size.usageAt = textIn(message.timestamp, latin1);
  if (message.type === 'gemini' && typeof message.model === 'string') size.model = textIn(message.model, latin1);
  return size;
}
