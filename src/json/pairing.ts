import type { ArrayNode, ContainerNode, JsonNode, ObjectNode } from './node.js';
import { ScalarQueue } from './scalar-queue.js';
import { isAbsent, isContainer, jsonReady, sameScalar } from './scalar.js';

/** The members or items a value would be written with, each beside the node it may keep the text of. */
export interface Children {
  /** Object keys whose values are written, in the object's own order; undefined for arrays. */
  keys: string[] | undefined;
  values: readonly unknown[];
  /** Read only: often the node's own member or item list. */
  hints: ReadonlyArray<JsonNode | undefined>;
  /** How many distinct keys (or items) the node holds, to tell whether members were added or removed. */
  distinct: number;
}

/** How far ahead a new container in an array looks for a free original item of its kind. */
const LOOKAHEAD = 16;

/**
 * Matches the values after an edit to the nodes they were parsed from. An object or array that
 * was parsed is known by identity wherever it moved; anything else is matched by place: an
 * object member by its key, an array element by the original items around it.
 */
export class Pairing {
  private readonly lastMembers = new Map<ObjectNode, Map<string, number>>();

  constructor(private readonly nodeOf: Map<object, ContainerNode>) {}

  /** The node a container was parsed from, if it was. */
  own(value: object): ContainerNode | undefined {
    return this.nodeOf.get(value);
  }

  /** The node whose text `value` would keep: its own when it was parsed, else the hint of its kind. */
  nodeFor(value: unknown, hint: JsonNode | undefined): JsonNode | undefined {
    if (!isContainer(value)) return hint?.kind === 'leaf' ? hint : undefined;
    const own = this.nodeOf.get(value);
    if (own !== undefined) return own;
    return hint?.kind === (Array.isArray(value) ? 'array' : 'object') ? hint : undefined;
  }

  /** Member index of each key's last occurrence: the one `JSON.parse` keeps. */
  lastMember(node: ObjectNode): Map<string, number> {
    let last = this.lastMembers.get(node);
    if (last === undefined) {
      last = new Map();
      for (let i = 0; i < node.members.length; i++) last.set(node.members[i]!.key!, i);
      this.lastMembers.set(node, last);
    }
    return last;
  }

  objectChildren(object: Record<string, unknown>, node: ObjectNode | undefined): Children {
    const keys = Object.keys(object);
    const values: unknown[] = new Array(keys.length);
    let absent = false;
    for (let i = 0; i < keys.length; i++) {
      values[i] = jsonReady(object[keys[i]!], keys[i]!);
      absent ||= isAbsent(values[i]);
    }
    if (absent) {
      let kept = 0;
      for (let i = 0; i < keys.length; i++) {
        if (isAbsent(values[i])) continue;
        keys[kept] = keys[i]!;
        values[kept++] = values[i];
      }
      keys.length = values.length = kept;
    }
    if (node === undefined) return { keys, values, hints: new Array(keys.length).fill(undefined), distinct: 0 };
    const members = node.members;
    // Usually nothing was added, removed or duplicated: the keys line up with the members.
    if (keys.length === members.length && keys.every((key, i) => key === members[i]!.key)) return { keys, values, hints: members, distinct: members.length };
    const last = this.lastMember(node);
    const hints = keys.map((key) => {
      const index = last.get(key);
      return index === undefined ? undefined : members[index];
    });
    return { keys, values, hints, distinct: last.size };
  }

  arrayChildren(array: unknown[], node: ArrayNode | undefined): Children {
    let values: unknown[] = array;
    for (let i = 0; i < array.length; i++) {
      const ready = jsonReady(array[i], String(i));
      // A hole reads as undefined but is skipped by every/map: copy so it becomes a real undefined (written as null).
      if (ready === array[i] && (ready !== undefined || i in array)) continue;
      if (values === array) values = array.slice();
      values[i] = ready;
    }
    if (node === undefined) return { keys: undefined, values, hints: new Array(values.length).fill(undefined), distinct: 0 };
    const items = node.items;
    if (values.length === items.length && values.every((value, i) => (isContainer(value) ? this.nodeOf.get(value) === items[i] : sameScalar(value, items[i])))) {
      return { keys: undefined, values, hints: items, distinct: items.length };
    }
    return { keys: undefined, values, hints: this.realign(values, node), distinct: items.length };
  }

  /**
   * Hints for elements that were moved, dropped or added: parsed containers keep their own
   * node, scalars find an equal original one, and new containers take the next free item of
   * their kind, nearby if there is one.
   */
  private realign(values: readonly unknown[], node: ArrayNode): Array<JsonNode | undefined> {
    const items = node.items;
    const hints: Array<JsonNode | undefined> = new Array(values.length).fill(undefined);
    const taken = new Uint8Array(items.length);
    for (const value of values) {
      const own = isContainer(value) ? this.nodeOf.get(value) : undefined;
      if (own !== undefined && own.parent === node) taken[own.index] = 1;
    }
    let scalars: ScalarQueue | undefined;
    const firstFree = { object: 0, array: 0 };
    let next = 0;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      let hint: JsonNode | undefined;
      if (!isContainer(value)) hint = (scalars ??= new ScalarQueue(items)).take(value);
      else {
        hint = this.nodeOf.get(value);
        const kind = Array.isArray(value) ? 'array' : 'object';
        for (let j = next; hint === undefined && j < Math.min(items.length, next + LOOKAHEAD); j++) {
          if (taken[j] === 0 && items[j]!.kind === kind) hint = items[j];
        }
        if (hint === undefined) {
          // Else the earliest free one of its kind; the search never goes back over places already passed.
          let j = firstFree[kind];
          while (j < items.length && (taken[j] === 1 || items[j]!.kind !== kind)) j++;
          firstFree[kind] = j;
          hint = items[j];
        }
      }
      if (hint === undefined) continue;
      hints[i] = hint;
      if (hint.parent !== node) continue;
      taken[hint.index] = 1;
      next = hint.index + 1;
    }
    return hints;
  }
}
