import type { ToolCallRef } from '../../model/entry.js';
import { CALL_ID_FALLBACKS, PAIRED_CALL_TYPES } from './markers.js';

type Json = Record<string, unknown>;

/** Pointer strings repeat on every line; share them instead of allocating one per block. */
const pointerCache = new Map<number, string>();
export function contentPointer(index: number): string {
  let pointer = pointerCache.get(index);
  if (pointer === undefined) {
    pointer = `/message/content/${index}`;
    if (pointerCache.size < 1024) pointerCache.set(index, pointer);
  }
  return pointer;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function isBlank(text: unknown): boolean {
  return typeof text === 'string' && text.trim() === '';
}

/** A call block in any shape OpenClaw pairs; undefined for every other block. */
export function readToolCall(block: unknown, blockIndex: number): ToolCallRef | undefined {
  if (!isObject(block) || typeof block.type !== 'string' || !PAIRED_CALL_TYPES.has(block.type)) return undefined;
  let id = nonEmptyString(block.id);
  let legacyShape = block.type !== 'toolCall';
  if (id === undefined) {
    for (const field of CALL_ID_FALLBACKS) {
      id = nonEmptyString(block[field]);
      if (id !== undefined) {
        legacyShape = true;
        break;
      }
    }
  }
  const name = typeof block.name === 'string' ? intern(block.name) : undefined;
  const args = block.arguments ?? block.input;
  if (block.arguments === undefined && block.input !== undefined) legacyShape = true;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (args === undefined || args === null) missing.push('arguments');
  // Only what is true is stored: huge files hold one of these per call.
  const call: ToolCallRef = { id, name, pointer: contentPointer(blockIndex), blockIndex };
  if (typeof block.partialJson === 'string') call.partial = true;
  if (missing.length > 0) call.missing = missing;
  if (legacyShape) call.legacyShape = true;
  return call;
}

const interned = new Map<string, string>();

/** Tool names repeat on every call; keep one copy of each. */
export function intern(value: string): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  if (interned.size < 4096) interned.set(value, value);
  return value;
}
