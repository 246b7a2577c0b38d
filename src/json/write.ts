import { Cleanliness } from './clean.js';
import type { ArrayNode, ContainerNode, JsonNode, ObjectNode } from './node.js';
import { Output } from './output.js';
import { Pairing } from './pairing.js';
import { ScalarQueue } from './scalar-queue.js';
import { freshScalar, isContainer, sameScalar } from './scalar.js';

/** One member or item to write, and the place it held in the original container (-1 when new there). */
interface Entry {
  origin: number;
  /** A duplicate key whose hidden value is written as it was, because the key's value did not change. */
  hidden: boolean;
  /** The key of a member the original container did not have. */
  newKey: string | undefined;
  value: unknown;
  hint: JsonNode | undefined;
}

interface Frame {
  value: object;
  node: ContainerNode | undefined;
  entries: Entry[];
  next: number;
  close: string | { start: number; end: number };
}

/**
 * Writes `value` (the parsed root of `text`, edited in place) back as text. Whatever still equals
 * what was parsed is copied from `text`: number spellings, string escapes, key order, duplicate
 * keys, whitespace. Only new or changed values are written afresh, as `JSON.stringify` would.
 * Containers being written wait on an explicit stack, so depth costs memory, not call stack.
 */
export function writeJson(text: string, root: JsonNode, value: unknown, nodeOf: Map<object, ContainerNode>): string {
  return new Writer(text, nodeOf).write(root, value);
}

class Writer {
  private readonly out: Output;
  private readonly pairing: Pairing;
  private readonly clean: Cleanliness;
  private readonly stack: Frame[] = [];
  private readonly open = new Set<object>();

  constructor(
    private readonly text: string,
    nodeOf: Map<object, ContainerNode>,
  ) {
    this.out = new Output(text);
    this.pairing = new Pairing(nodeOf);
    this.clean = new Cleanliness(this.pairing);
  }

  write(root: JsonNode, value: unknown): string {
    this.out.span(0, root.start);
    this.value(value, root);
    while (this.stack.length > 0) {
      const frame = this.stack[this.stack.length - 1]!;
      if (frame.next === frame.entries.length) {
        if (typeof frame.close === 'string') this.out.fresh(frame.close);
        else this.out.span(frame.close.start, frame.close.end);
        this.open.delete(frame.value);
        this.stack.pop();
        continue;
      }
      const i = frame.next++;
      if (i > 0) this.separator(frame.node, frame.entries[i - 1]!.origin, frame.entries[i]!.origin);
      this.entry(frame.node, frame.entries[i]!);
    }
    this.out.span(root.end, this.text.length);
    return this.out.text();
  }

  /** Writes a value whole, or opens it when it changed inside and leaves its entries to the loop. */
  private value(value: unknown, hint: JsonNode | undefined): void {
    if (!isContainer(value)) {
      if (sameScalar(value, hint)) this.out.span(hint!.start, hint!.end);
      else this.out.fresh(freshScalar(value));
      return;
    }
    const node = this.pairing.nodeFor(value, hint) as ContainerNode | undefined;
    if (node !== undefined && this.clean.isClean(value, node)) return this.out.span(node.start, node.end);
    if (this.open.has(value)) throw new TypeError('Converting circular structure to JSON');
    const isArray = Array.isArray(value);
    const entries = isArray ? this.items(value, node as ArrayNode | undefined) : this.members(value as Record<string, unknown>, node as ObjectNode | undefined);
    if (entries.length === 0) return this.out.fresh(isArray ? '[]' : '{}');
    const count = node === undefined ? 0 : childCount(node);
    let close: Frame['close'];
    if (count > 0) {
      this.out.span(node!.start, childStart(node!, 0));
      close = { start: childEnd(node!, count - 1), end: node!.end };
    } else {
      this.out.fresh(isArray ? '[' : '{');
      close = isArray ? ']' : '}';
    }
    this.open.add(value);
    this.stack.push({ value, node, entries, next: 0, close });
  }

  private entry(node: ContainerNode | undefined, entry: Entry): void {
    if (entry.newKey !== undefined) {
      this.out.fresh(JSON.stringify(entry.newKey) + ':');
      return this.value(entry.value, entry.hint);
    }
    if (node?.kind !== 'object') return this.value(entry.value, entry.hint);
    const member = node.members[entry.origin]!;
    if (entry.hidden || (entry.hint === member && this.clean.keeps(entry.value, member))) return this.out.span(member.keyStart, member.end);
    // The key keeps its spelling and the spacing around its colon.
    this.out.span(member.keyStart, member.start);
    this.value(entry.value, entry.hint);
  }

  /** The original separator before an entry's old place (or after its predecessor's), else a bare comma. */
  private separator(node: ContainerNode | undefined, before: number, at: number): void {
    if (node !== undefined && at > 0) return this.out.span(childEnd(node, at - 1), childStart(node, at));
    if (node !== undefined && before >= 0 && before + 1 < childCount(node)) return this.out.span(childEnd(node, before), childStart(node, before + 1));
    this.out.fresh(',');
  }

  /**
   * A parsed object keeps its members' order as written, duplicates included while their key's
   * value is unchanged; new keys follow in insertion order, so reading the result gives the
   * edited value with its keys in the same order. An object built by the edit is
   * written in its own key order, each member matched to the original's by key.
   */
  private members(object: Record<string, unknown>, node: ObjectNode | undefined): Entry[] {
    const { keys, values, hints } = this.pairing.objectChildren(object, node);
    // Same keys in the same order as written: every member keeps its place.
    if (node !== undefined && hints === node.members) return values.map((value, i) => ({ origin: i, hidden: false, newKey: undefined, value, hint: hints[i] }));
    const entries: Entry[] = [];
    const childOf = new Map<string, number>();
    keys!.forEach((key, i) => childOf.set(key, i));
    let renamed: ScalarQueue | undefined;
    const added = (key: string, i: number): Entry => {
      const value = values[i];
      const hint = isContainer(value) ? undefined : (renamed ??= this.renamedFrom(node, childOf))?.take(value);
      return { origin: -1, hidden: false, newKey: key, value, hint };
    };
    if (node === undefined || this.pairing.own(object) !== node) {
      const earlier = node === undefined ? undefined : this.earlierOccurrences(node);
      keys!.forEach((key, i) => {
        const hint = hints[i];
        if (hint === undefined) return entries.push(added(key, i));
        // An unchanged duplicated key keeps all its occurrences, side by side.
        if (earlier?.has(key) && this.clean.keeps(values[i], hint)) {
          for (const m of earlier.get(key)!) entries.push({ origin: m, hidden: true, newKey: undefined, value: values[i], hint: node!.members[m] });
        }
        entries.push({ origin: hint.index, hidden: false, newKey: undefined, value: values[i], hint });
      });
      return entries;
    }
    const last = this.pairing.lastMember(node);
    node.members.forEach((member, m) => {
      const key = member.key!;
      const i = childOf.get(key);
      if (i === undefined) return;
      const kept = node.members[last.get(key)!]!;
      // Earlier copies of a duplicated key are written as they were, changed or not: JSON.parse
      // reads the last one, so the changed value goes there and nothing the user wrote is lost.
      const hidden = member !== kept;
      entries.push({ origin: m, hidden, newKey: undefined, value: values[i], hint: hidden || this.clean.keeps(values[i], kept) ? member : kept });
    });
    keys!.forEach((key, i) => {
      if (hints[i] === undefined) entries.push(added(key, i));
    });
    return entries;
  }

  /** Member indexes of the occurrences of each duplicated key before its last one, or undefined when no key repeats. */
  private earlierOccurrences(node: ObjectNode): Map<string, number[]> | undefined {
    const last = this.pairing.lastMember(node);
    if (last.size === node.members.length) return undefined;
    const earlier = new Map<string, number[]>();
    node.members.forEach((member, m) => {
      if (last.get(member.key!) === m) return;
      const list = earlier.get(member.key!);
      if (list === undefined) earlier.set(member.key!, [m]);
      else list.push(m);
    });
    return earlier;
  }

  /** For each new key holding a scalar, an original member it may have been renamed from, so its value keeps its spelling. */
  private renamedFrom(node: ObjectNode | undefined, present: Map<string, number>): ScalarQueue | undefined {
    return node === undefined ? undefined : new ScalarQueue(node.members.filter((member) => !present.has(member.key!)));
  }

  private items(array: unknown[], node: ArrayNode | undefined): Entry[] {
    const { values, hints } = this.pairing.arrayChildren(array, node);
    return values.map((value, i) => {
      const hint = hints[i];
      return { origin: hint !== undefined && hint.parent === node ? hint.index : -1, hidden: false, newKey: undefined, value, hint };
    });
  }
}

function childCount(node: ContainerNode): number {
  return node.kind === 'object' ? node.members.length : node.items.length;
}

function childStart(node: ContainerNode, i: number): number {
  return node.kind === 'object' ? node.members[i]!.keyStart : node.items[i]!.start;
}

function childEnd(node: ContainerNode, i: number): number {
  return node.kind === 'object' ? node.members[i]!.end : node.items[i]!.end;
}
