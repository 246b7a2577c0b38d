import type { ContainerNode, JsonNode } from './node.js';
import type { Children, Pairing } from './pairing.js';
import { isContainer, sameScalar } from './scalar.js';

interface Frame {
  value: object;
  node: ContainerNode;
  children: Children;
  next: number;
}

/**
 * Tells whether a value still equals the node it is paired with, member for member, so its
 * original text can stand for it. Answers are remembered per value: a value is examined once
 * however deep the edit that asks about it, which keeps a rewrite linear.
 */
export class Cleanliness {
  private readonly known = new Map<object, { node: JsonNode; clean: boolean }>();

  constructor(private readonly pairing: Pairing) {}

  /** True when `value` written at `node`'s place would be exactly `node`'s text. */
  keeps(value: unknown, node: JsonNode | undefined): boolean {
    if (!isContainer(value)) return sameScalar(value, node);
    return node !== undefined && node.kind !== 'leaf' && this.pairing.nodeFor(value, node) === node && this.isClean(value, node);
  }

  /** True when `value`, paired with `node`, holds the same members or items, each clean in turn. */
  isClean(value: object, node: ContainerNode): boolean {
    const remembered = this.known.get(value);
    if (remembered !== undefined && remembered.node === node) return remembered.clean;
    const stack: Frame[] = [];
    let frame = this.open(value, node);
    if (frame === undefined) return false;
    stack.push(frame);
    while (stack.length > 0) {
      frame = stack[stack.length - 1]!;
      const { values, hints } = frame.children;
      if (frame.next === values.length) {
        this.known.set(frame.value, { node: frame.node, clean: true });
        stack.pop();
        continue;
      }
      const i = frame.next++;
      const child = values[i];
      const hint = hints[i];
      let clean: boolean;
      if (!isContainer(child)) clean = sameScalar(child, hint);
      else if (hint === undefined || hint.kind === 'leaf' || this.pairing.nodeFor(child, hint) !== hint) clean = false;
      else {
        const seen = this.known.get(child);
        if (seen !== undefined && seen.node === hint) clean = seen.clean;
        else {
          const opened = this.open(child, hint);
          if (opened !== undefined) {
            stack.push(opened);
            continue;
          }
          clean = false;
        }
      }
      if (clean) continue;
      // One changed value makes every container around it changed too.
      for (const open of stack) this.known.set(open.value, { node: open.node, clean: false });
      return false;
    }
    return true;
  }

  /** A frame to compare `value`'s children with, or undefined when its shape already differs. */
  private open(value: object, node: ContainerNode): Frame | undefined {
    const children =
      node.kind === 'array'
        ? Array.isArray(value) ? this.pairing.arrayChildren(value, node) : undefined
        : Array.isArray(value) ? undefined : this.pairing.objectChildren(value as Record<string, unknown>, node);
    const same =
      children !== undefined &&
      children.values.length === children.distinct &&
      children.hints.every((hint, i) => hint !== undefined && hint.parent === node && (node.kind === 'object' || hint.index === i));
    if (!same) {
      this.known.set(value, { node, clean: false });
      return undefined;
    }
    return { value, node, children, next: 0 };
  }
}
