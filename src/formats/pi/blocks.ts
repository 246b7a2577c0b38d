import { intern } from '../intern.js';
import type { ToolCallRef } from '../../model/entry.js';
import { CALL_ID_FIELDS, CALL_TYPES, canonicalCall, canonicalId, isCanonicalCall } from './canonical.js';
import { isObject, nonEmptyString, withUtf8Fields, type Json } from '../json.js';

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

/** A call block in any shape some writer uses; undefined for every other block. */
export function readToolCall(found: unknown, blockIndex: number, latin1 = false): ToolCallRef | undefined {
  if (!isObject(found) || typeof found.type !== 'string' || !CALL_TYPES.has(found.type)) return undefined;
  // From a line read as latin1 (see Decoder.decode): its ids, name and any string arguments as UTF-8.
  const block = latin1 ? withUtf8Fields(found) : found;
  const canonical = isCanonicalCall(block) ? undefined : canonicalCall(block);
  const shape = canonical === undefined || canonical.conflict !== undefined ? block : canonical.value;
  const id = nonEmptyString(shape.id) ?? firstId(block);
  // The name as written, padding included: repair trims it in place, whatever the block's shape.
  const written = typeof block.name === 'string' ? block.name : shape.name;
  const name = typeof written === 'string' ? intern(written) : undefined;
  const args = shape.arguments ?? shape.input ?? shape.toolInput;
  const missing: NonNullable<ToolCallRef['missing']> = [];
  if (id === undefined) missing.push('id');
  if (name === undefined || name.trim() === '') missing.push('name');
  if (args === undefined || args === null) missing.push('arguments');
  // Only what is true is stored: huge files hold one of these per call.
  const call: ToolCallRef = { id, name, pointer: contentPointer(blockIndex), blockIndex };
  if (typeof block.partialJson === 'string') call.partial = true;
  if (missing.length > 0) call.missing = missing;
  if (canonical?.changes.length) call.changes = canonical.changes;
  if (canonical?.conflict !== undefined) call.conflict = canonical.conflict;
  return call;
}

function firstId(block: Json): string | undefined {
  for (const field of CALL_ID_FIELDS) {
    const id = nonEmptyString(block[field]);
    if (id !== undefined) return canonicalId(id);
  }
  return undefined;
}

