import { isObject } from './json.js';

/** Where a JSON Pointer lands inside a parsed value: the container and the key or index in it. */
export interface PointerSlot {
  container: Record<string, unknown> | unknown[];
  key: string | number;
}

/** The slot a JSON Pointer (RFC 6901) names inside `root`, when every step of it is there. */
export function slotAt(root: unknown, pointer: string): PointerSlot | undefined {
  if (!pointer.startsWith('/')) return undefined;
  const steps = pointer.slice(1).split('/').map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  let container: unknown = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const key = Array.isArray(container) ? indexOf(step, container.length) : isObject(container) && Object.hasOwn(container, step) ? step : undefined;
    if (key === undefined) return undefined;
    if (i === steps.length - 1) return { container: container as PointerSlot['container'], key };
    container = (container as Record<string | number, unknown>)[key];
  }
  return undefined;
}

/** The value a JSON Pointer names, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  const slot = slotAt(root, pointer);
  return slot === undefined ? undefined : (slot.container as Record<string | number, unknown>)[slot.key];
}

function indexOf(step: string, length: number): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(step)) return undefined;
  const index = Number(step);
  return index < length ? index : undefined;
}
