import type { JsonNode } from './node.js';

/** Map keys are compared as SameValueZero, which would take -0 for 0. */
const NEGATIVE_ZERO = Symbol('-0');

/**
 * Original scalars waiting to be matched to values by equality, earliest first. A scalar has no
 * identity, so a kept one is found by its value: that way 1e400, -0 and 64-bit integers that
 * were moved or renamed keep the spelling a fresh write would lose.
 */
export class ScalarQueue {
  private readonly waiting = new Map<unknown, JsonNode[]>();
  private readonly taken = new Map<unknown, number>();

  constructor(nodes: Iterable<JsonNode>) {
    for (const node of nodes) {
      if (node.kind !== 'leaf') continue;
      const key = keyOf(node.value);
      const list = this.waiting.get(key);
      if (list === undefined) this.waiting.set(key, [node]);
      else list.push(node);
    }
  }

  /** The earliest original scalar equal to `value` not matched yet. */
  take(value: unknown): JsonNode | undefined {
    const key = keyOf(value);
    const list = this.waiting.get(key);
    const at = this.taken.get(key) ?? 0;
    if (list === undefined || at >= list.length) return undefined;
    this.taken.set(key, at + 1);
    return list[at];
  }
}

function keyOf(value: unknown): unknown {
  return Object.is(value, -0) ? NEGATIVE_ZERO : value;
}
