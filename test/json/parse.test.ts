import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonNode } from '../../src/json/node.js';
import { parseJson } from '../../src/json/parse.js';
import { jsonText, shape } from './json-text.js';

function outcome(parse: (text: string) => unknown, text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: shape(parse(text)) };
  } catch (error) {
    return { ok: false, error };
  }
}

function* nodes(root: JsonNode): Generator<JsonNode> {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    if (node.kind === 'object') stack.push(...node.members);
    if (node.kind === 'array') stack.push(...node.items);
  }
}

describe('parseJson', () => {
  it('builds exactly the value JSON.parse builds: key order, last duplicate, -0, 1e400', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(shape(parseJson(text).root.value)).toEqual(shape(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and rejects the same texts as JSON.parse', () => {
    const damage = fc.tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '"', '\\', '{', '}', '[', ']', ':', '0', '-', '.', 'e', ' ', '\u0000', '\n', 'tru', '\u00a0', '\ufeff'));
    fc.assert(
      fc.property(damage, ([text, at, insert]) => {
        const cut = at % (text.length + 1);
        // Either replace one character or insert some.
        for (const broken of [text.slice(0, cut) + insert + text.slice(cut + 1), text.slice(0, cut) + insert + text.slice(cut)]) {
          const ours = outcome((t) => parseJson(t).root.value, broken);
          const theirs = outcome(JSON.parse, broken);
          expect(ours.ok).toBe(theirs.ok);
          if (ours.ok && theirs.ok) expect(ours.value).toEqual(theirs.value);
          if (!ours.ok) expect(ours.error).toBeInstanceOf(SyntaxError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects what JSON does not allow', () => {
    for (const text of ['', ' ', '01', '1.', '.5', '+1', '-', '1e', '"\t"', '"\\x41"', '"\\u12"', "'a'", '[1,]', '{"a":1,}', '{a:1}', '[1 2]', 'nul', 'True', 'NaN', 'Infinity', '{"a" 1}', '"abc', '[', '{"a":', '\ufeff{}', '1 2', '"\\']) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      expect(() => parseJson(text), text).toThrow(SyntaxError);
    }
  });

  it('records spans: every value, and every member from its key, is exactly its own text', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const { root, nodeOf } = parseJson(text);
        for (const node of nodes(root)) {
          expect(shape(JSON.parse(text.slice(node.start, node.end)))).toEqual(shape(node.value));
          if (node.kind !== 'leaf') expect(nodeOf.get(node.value)).toBe(node);
          if (node.key !== undefined) expect(JSON.parse(`{${text.slice(node.keyStart, node.end)}}`)).toHaveProperty([node.key]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every duplicate key as a member, and the last one as the value', () => {
    const { root } = parseJson('{"a":1,"b":2,"a":3}');
    expect(root.kind === 'object' && root.members.map((m) => [m.key, m.value])).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 3],
    ]);
    expect(Object.entries(root.value as object)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('makes "__proto__" an own key, as JSON.parse does, not the prototype', () => {
    const value = parseJson('{"__proto__":{"polluted":true}}').root.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses 100,000 levels of nesting without running out of stack', () => {
    const depth = 100_000;
    const arrays = parseJson('['.repeat(depth) + '7' + ']'.repeat(depth));
    let value = arrays.root.value as unknown;
    for (let i = 0; i < depth; i++) value = (value as unknown[])[0];
    expect(value).toBe(7);
    const objects = parseJson('{"a":'.repeat(depth) + '7' + '}'.repeat(depth));
    expect(objects.root.end).toBe(depth * 6 + 1);
    expect(() => parseJson('['.repeat(depth) + ']'.repeat(depth - 1))).toThrow(SyntaxError);
  });
});
