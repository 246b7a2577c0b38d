import type { Entry } from '../model/entry.js';
import { addSize, LONG_STRING, noteString } from '../model/size/facts.js';
import type { SizeKind } from '../model/size/request-size.js';
import { isObject } from './json.js';

/** A string's UTF-8 bytes: its length, from a line read as latin1 (see Decoder.decode). */
export function textBytes(text: string, latin1: boolean): number {
  return latin1 ? text.length : Buffer.byteLength(text, 'utf8');
}

/**
 * About how many bytes a parsed value takes as JSON (escapes aside), counted without writing it:
 * a call's arguments, a result's structured content.
 */
export function jsonSize(value: unknown, latin1: boolean): number {
  switch (typeof value) {
    case 'string':
      return textBytes(value, latin1) + 2;
    case 'number':
      return Number.isInteger(value) && value >= 0 && value < 1e6 ? (value < 10 ? 1 : Math.floor(Math.log10(value)) + 1) : String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      // Brackets, and a comma after each member but the last.
      let size = 1;
      if (Array.isArray(value)) {
        for (const item of value) size += jsonSize(item, latin1) + 1;
        return value.length === 0 ? 2 : size;
      }
      for (const key in value) size += textBytes(key, latin1) + 4 + jsonSize((value as Record<string, unknown>)[key], latin1);
      return size === 1 ? 2 : size;
    }
    default:
      return 0;
  }
}

/** Notes a string's bytes as `kind`, and the string itself when it is long (see noteString). */
export function addString(entry: Entry, kind: SizeKind, text: unknown, pointer: string, latin1: boolean): void {
  if (typeof text !== 'string') return;
  addSize(entry, kind, textBytes(text, latin1));
  noteString(entry, pointer, text.length);
}

/**
 * The text of a content value that is a string or a list of text blocks (`{type:"text", text}`),
 * noted as `kind`; other blocks as JSON, as 'other', unless `skip` says the caller notes them
 * (images, documents).
 */
export function addContent(entry: Entry, kind: SizeKind, content: unknown, pointer: string, latin1: boolean, skip?: (block: Record<string, unknown>) => boolean): void {
  if (typeof content === 'string') {
    addString(entry, kind, content, pointer, latin1);
    return;
  }
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null) addSize(entry, kind, jsonSize(content, latin1));
    return;
  }
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block)) continue;
    if (typeof block.text === 'string') {
      addSize(entry, kind, textBytes(block.text, latin1));
      if (block.text.length >= LONG_STRING) noteString(entry, `${pointer}/${i}/text`, block.text.length);
    }
    else if (skip === undefined || !skip(block)) addSize(entry, kind, jsonSize(block, latin1));
  }
}

/** Input + cache read + cache write of a usage record, when they add up to anything. */
export function usageTotal(...counts: unknown[]): number | undefined {
  let total = 0;
  for (const count of counts) if (typeof count === 'number' && Number.isFinite(count) && count > 0) total += count;
  return total > 0 ? total : undefined;
}
