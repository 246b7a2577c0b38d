import type { JsonNode } from './node.js';

/**
 * The value `JSON.stringify` would write for `value` held under `key`: `toJSON` called, boxed
 * primitives unboxed. Plain parsed data passes through untouched.
 */
export function jsonReady(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    return value;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return jsonReady(toJSON.call(value, key), key);
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return value;
}

/** Values `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

export function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** True when `value` is the scalar `node` was parsed as: numbers by `Object.is`, so `-0` is not `0`. */
export function sameScalar(value: unknown, node: JsonNode | undefined): boolean {
  if (node === undefined || node.kind !== 'leaf') return false;
  return typeof value === 'number' ? Object.is(value, node.value) : value === node.value;
}

/**
 * A new scalar, written as `JSON.stringify` writes it, except numbers it would change: -0 stays
 * -0, and infinities (which only an original 1e400 or the like can have produced) are written
 * as such a number again rather than as null.
 */
export function freshScalar(value: unknown): string {
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0';
    if (value === Infinity) return '1e400';
    if (value === -Infinity) return '-1e400';
  }
  return isAbsent(value) ? 'null' : JSON.stringify(value);
}
