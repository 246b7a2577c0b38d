import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteJson } from '../../src/json/rewrite.js';
import { jsonText, membersText, objectText, oddNumber, oddString, shape, whitespace } from './json-text.js';

type Json = Record<string, unknown>;

const keep = () => {};
/** A new value, free of -0 so that JSON.stringify can be the oracle of how it is written. */
const fresh = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

function uniqueMembers(members: Array<{ key: string }>): number[] {
  const keys = members.map((m) => JSON.parse(m.key) as string);
  return keys.flatMap((key, i) => (keys.indexOf(key) === keys.lastIndexOf(key) ? [i] : []));
}

describe('rewriteJson: an edit that changes nothing', () => {
  it('gives back the text byte for byte, and the value JSON.parse gives', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const { text: out, value } = rewriteJson(text, keep);
        expect(out).toBe(text);
        expect(shape(value)).toEqual(shape(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('hands the edit the same value it returns', () => {
    let seen: unknown;
    const { value } = rewriteJson('{"a":[1]}', (parsed) => (seen = parsed));
    expect(value).toBe(seen);
  });
});

describe('rewriteJson: an edit to one member', () => {
  it('replaces only that member value; every other byte stays', () => {
    const edit = fc.tuple(objectText, fc.nat(), fresh).filter(([object]) => uniqueMembers(object.members).length > 0);
    fc.assert(
      fc.property(edit, ([{ members, gaps, text }, pick, value]) => {
        const unique = uniqueMembers(members);
        const j = unique[pick % unique.length]!;
        const key = JSON.parse(members[j]!.key) as string;
        const out = rewriteJson(text, (root) => ((root as Json)[key] = value)).text;
        const prefix = `{${gaps[0]}` + members.slice(0, j).map((m) => `${m.head}${m.value}${gaps[1]},${gaps[2]}`).join('') + members[j]!.head;
        const suffix = text.slice(prefix.length + members[j]!.value.length);
        expect(out.startsWith(prefix)).toBe(true);
        expect(out.endsWith(suffix)).toBe(true);
        const written = out.slice(prefix.length, out.length - suffix.length);
        expect(shape(JSON.parse(written))).toEqual(shape(value));
        if (typeof value !== 'object' || value === null) {
          expect(written).toBe(Object.is(value, JSON.parse(members[j]!.value)) ? members[j]!.value : JSON.stringify(value));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('deletes only that member and its separator', () => {
    const edit = fc.tuple(objectText, fc.nat()).filter(([object]) => uniqueMembers(object.members).length > 0);
    fc.assert(
      fc.property(edit, ([{ members, gaps, text }, pick]) => {
        const unique = uniqueMembers(members);
        const j = unique[pick % unique.length]!;
        const out = rewriteJson(text, (root) => delete (root as Json)[JSON.parse(members[j]!.key) as string]).text;
        const rest = members.filter((_, i) => i !== j);
        expect(out).toBe(rest.length === 0 ? '{}' : membersText(rest, gaps));
      }),
      { numRuns: 300 },
    );
  });

  it('adds a new member at the end, leaving the rest as written', () => {
    fc.assert(
      fc.property(objectText, fresh, ({ members, gaps, text }, value) => {
        const out = rewriteJson(text, (root) => ((root as Json)['new key'] = value)).text;
        const added = `"new key":${JSON.stringify(value)}`;
        if (members.length === 0) expect(out).toBe(`{${added}}`);
        else expect(out).toBe(text.slice(0, text.length - 1 - gaps[3]!.length) + ',' + added + gaps[3] + '}');
      }),
      { numRuns: 200 },
    );
  });

  it('keeps 64-bit integers, 1e400, -0, 1.0 and escapes beside a changed member', () => {
    const text = '{"chat_id": 9007199254740993, "big":1e400,"neg":-0,"one":1.0 ,"e":1E5,"s":"caf\\u00e9 \\/tmp","id":"x"}';
    expect(rewriteJson(text, (v) => ((v as Json).id = 'y')).text).toBe(text.replace('"id":"x"', '"id":"y"'));
  });
});

describe('rewriteJson: duplicate keys', () => {
  const text = '{"a":1, "b":{"x":1,"x":2}, "a" : 2.0, "c":3}';

  it('keeps every occurrence, in place, while the key is untouched', () => {
    expect(rewriteJson(text, (v) => ((v as Json).c = 4)).text).toBe(text.replace('"c":3', '"c":4'));
    expect(rewriteJson(text, (v) => (((v as Json).b as Json).y = 0)).text).toBe(text.replace('"x":2}', '"x":2,"y":0}'));
  });

  it('keeps them in an object the edit rebuilt, when their value did not change', () => {
    const out = rewriteJson('{"v":{"type":"old","k":1,"k":2.0,"j":3,"j":4}}', (v) => {
      const { type, ...rest } = (v as Json).v as Json;
      (v as Json).v = { type: 'new', ...rest, j: 5 };
    }).text;
    expect(out).toBe('{"v":{"type":"new","k":1,"k":2.0,"j":5}}');
  });

  it('keeps the earlier copies of a changed key as written, and writes the change where JSON.parse reads it', () => {
    const out = rewriteJson(text, (v) => ((v as Json).a = 5)).text;
    expect(out).toBe('{"a":1, "b":{"x":1,"x":2}, "a" : 5, "c":3}');
    expect(JSON.parse(out)).toEqual({ a: 5, b: { x: 2 }, c: 3 });
    expect(rewriteJson(text, (v) => delete (v as Json).a).text).toBe('{"b":{"x":1,"x":2}, "c":3}');
  });
});

describe('rewriteJson: arrays', () => {
  const element = fc.oneof(
    fc.tuple(whitespace, oddNumber, whitespace, oddString).map(([a, n, b, s]) => `{${a}"n":${n},${b}"s":${s}}`),
    fc.tuple(oddNumber, oddNumber).map(([a, b]) => `[${a}, ${b}]`),
  );
  it('keeps the text of every element that was moved or kept', () => {
    const edit = fc.tuple(fc.array(element, { minLength: 1, maxLength: 8 }), whitespace, fc.array(fc.nat(), { maxLength: 10 }));
    fc.assert(
      fc.property(edit, ([elements, gap, order]) => {
        const text = `[${gap}${elements.join(`,${gap}`)}${gap}]`;
        const picked = [...new Set(order.map((i) => i % elements.length))];
        const out = rewriteJson(text, (v) => {
          const items = v as unknown[];
          const kept = picked.map((i) => items[i]);
          items.splice(0, items.length, ...kept);
        }).text;
        let at = 0;
        let between = '';
        for (const i of picked) {
          const found = out.indexOf(elements[i]!, at);
          expect(found).toBeGreaterThanOrEqual(0);
          between += out.slice(at, found);
          at = found + elements[i]!.length;
        }
        between += out.slice(at);
        expect(between).toMatch(/^[\s,[\]]*$/);
        expect(shape(JSON.parse(out))).toEqual(picked.map((i) => shape(JSON.parse(elements[i]!))));
      }),
      { numRuns: 300 },
    );
  });

  it('drops and reorders elements with their separators', () => {
    const text = '[ {"a":1.0} , {"b":2E0} , {"c":-0} ]';
    expect(rewriteJson(text, (v) => (v as unknown[]).splice(1, 1)).text).toBe('[ {"a":1.0} , {"c":-0} ]');
    expect(rewriteJson(text, (v) => (v as unknown[]).reverse()).text).toBe('[ {"c":-0} , {"b":2E0} , {"a":1.0} ]');
    expect(rewriteJson(text, (v) => (v as unknown[]).splice(0)).text).toBe('[]');
  });

  it('lines up scalars that stayed around new or dropped ones', () => {
    expect(rewriteJson('[1.0, 2.0, 3.0]', (v) => (v as unknown[]).splice(1, 1)).text).toBe('[1.0, 3.0]');
    expect(rewriteJson('[1.0, 2.0, 3.0]', (v) => (v as unknown[]).unshift(0)).text).toBe('[0,1.0, 2.0, 3.0]');
    expect(rewriteJson('[1.0, 2.0]', (v) => (v as unknown[]).push(undefined)).text).toBe('[1.0, 2.0,null]');
    expect(rewriteJson('[1.0, 2.0, 3.0]', (v) => delete (v as unknown[])[1]).text).toBe('[1.0, null, 3.0]');
  });
});

describe('rewriteJson: values the edit builds anew', () => {
  const line =
    '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"caf\\u00e9"},' +
    '{"type":"toolUse", "id":"t1","name":"exec","input":{"chat_id":9007199254740993,"x":1e400,"z":-0,"k":1,"k":2},"n":1.50}],"usage":{"cost":2.5e-3}}}';

  it('a block rebuilt with renamed keys keeps the spelling of what it carried over', () => {
    const out = rewriteJson(line, (v) => {
      const message = (v as Json).message as Json;
      message.content = (message.content as Json[]).map((block) => {
        if (block.type !== 'toolUse') return block;
        const rebuilt: Json = {};
        for (const [key, field] of Object.entries(block)) {
          if (key === 'type') rebuilt.type = 'toolCall';
          else if (key === 'input') rebuilt.arguments = field;
          else rebuilt[key] = field;
        }
        return rebuilt;
      });
    }).text;
    expect(out).toBe(line.replace('"type":"toolUse"', '"type":"toolCall"').replace('"input":', '"arguments":'));
  });

  it('a renamed scalar member keeps its spelling too', () => {
    const out = rewriteJson('{"toolUseId":"caf\\u00e9","n":1.50}', (v) => {
      const copy: Json = { id: (v as Json).toolUseId, n: (v as Json).n };
      Object.assign(v as Json, { toolUseId: undefined, n: undefined }, copy);
      delete (v as Json).toolUseId;
    }).text;
    expect(out).toBe('{"n":1.50,"id":"caf\\u00e9"}');
  });

  it('a copied object keeps the text of its members', () => {
    const text = '{"message":{"role":"toolResult","toolUseId":"t1","timestamp":1.7e12,"isError":false}}';
    const out = rewriteJson(text, (v) => {
      const { toolUseId, ...rest } = (v as Json).message as Json;
      (v as Json).message = { ...rest, toolCallId: toolUseId };
    }).text;
    expect(out).toBe('{"message":{"role":"toolResult","timestamp":1.7e12,"isError":false,"toolCallId":"t1"}}');
  });

  it('an object moved elsewhere keeps its own text', () => {
    const text = '{"from":[{"k": 1.0}],"to":[]}';
    const out = rewriteJson(text, (v) => ((v as Json).to as unknown[]).push(((v as Json).from as unknown[]).pop())).text;
    expect(out).toBe('{"from":[],"to":[{"k": 1.0}]}');
  });

  it('writes new values as JSON.stringify does', () => {
    const out = rewriteJson('{"a":1}', (v) => Object.assign(v as Json, { u: undefined, f: () => 1, d: new Date(0), n: NaN, w: [undefined], b: new Boolean(true) })).text;
    expect(out).toBe('{"a":1,"d":"1970-01-01T00:00:00.000Z","n":null,"w":[null],"b":true}');
    // Except numbers it would change: they can only have come from the original text, and must read back the same.
    expect(rewriteJson('{}', (v) => Object.assign(v as Json, { z: -0, i: Infinity, j: -Infinity })).text).toBe('{"z":-0,"i":1e400,"j":-1e400}');
    expect(() => rewriteJson('{}', (v) => ((v as Json).big = 1n))).toThrow(TypeError);
  });

  it('refuses a value that contains itself, as JSON.stringify does', () => {
    expect(() => rewriteJson('{"a":{}}', (v) => (((v as Json).a as Json).self = v))).toThrow(TypeError);
  });
});

describe('rewriteJson: random edits', () => {
  type Op = { kind: 'set' | 'delete' | 'add' | 'copy'; value: unknown } | { kind: 'splice' | 'insert' | 'reverse' | 'slice'; at: number; value: unknown };
  const op = fc.oneof(
    fc.record({ kind: fc.constantFrom('set' as const, 'delete' as const, 'add' as const, 'copy' as const), value: fresh }),
    fc.record({ kind: fc.constantFrom('splice' as const, 'insert' as const, 'reverse' as const, 'slice' as const), at: fc.nat(), value: fresh }),
  );

  function containers(value: unknown): Array<{ holder: Json | unknown[] | undefined; key: string | number; value: Json | unknown[] }> {
    const found: Array<{ holder: Json | unknown[] | undefined; key: string | number; value: Json | unknown[] }> = [];
    const visit = (holder: Json | unknown[] | undefined, key: string | number, v: unknown) => {
      if (typeof v !== 'object' || v === null) return;
      found.push({ holder, key, value: v as Json });
      for (const [k, child] of Object.entries(v)) visit(v as Json, Array.isArray(v) ? Number(k) : k, child);
    };
    visit(undefined, '', value);
    return found;
  }

  function apply(root: unknown, ops: Array<[number, Op]>): void {
    for (const [pick, change] of ops) {
      const all = containers(root);
      if (all.length === 0) return;
      const { holder, key, value } = all[pick % all.length]!;
      if (Array.isArray(value) && 'at' in change) {
        const at = value.length === 0 ? 0 : change.at % value.length;
        if (change.kind === 'splice') value.splice(at, 1);
        else if (change.kind === 'insert') value.splice(at, 0, change.value);
        else if (change.kind === 'reverse') value.reverse();
        else if (holder !== undefined) (holder as Json)[key] = value.slice();
      } else if (!Array.isArray(value) && !('at' in change)) {
        const keys = Object.keys(value);
        const name = keys.length === 0 ? 'k' : keys[change.value === null ? 0 : keys.length - 1]!;
        if (change.kind === 'set') value[name] = change.value;
        else if (change.kind === 'delete') delete value[name];
        else if (change.kind === 'add') value[`added ${keys.length}`] = change.value;
        else if (holder !== undefined) (holder as Json)[key] = { ...value };
      }
    }
  }

  it('the text reads back as exactly the edited value, key order included', () => {
    fc.assert(
      fc.property(jsonText, fc.array(fc.tuple(fc.nat(), op), { minLength: 1, maxLength: 4 }), (text, ops) => {
        const { text: out, value } = rewriteJson(text, (root) => apply(root, ops));
        expect(shape(JSON.parse(out))).toEqual(shape(value));
        // Numbers can be spelled in ways no double holds; the kept spelling must be the original one.
        expect(rewriteJson(out, keep).text).toBe(out);
      }),
      { numRuns: 500 },
    );
  });
});

describe('rewriteJson: deep nesting', () => {
  const depth = 100_000;

  it('rewrites 100,000 levels without running out of stack', () => {
    const arrays = '['.repeat(depth) + '1.0' + ']'.repeat(depth);
    expect(rewriteJson(arrays, keep).text).toBe(arrays);
    const objects = '{"a":'.repeat(depth) + '-0' + ',"b":1}'.repeat(depth);
    expect(rewriteJson(objects, keep).text).toBe(objects);
    const changed = rewriteJson(objects, (root) => {
      let at = root as Json;
      while (typeof at.a === 'object') at = at.a as Json;
      at.b = 2;
    }).text;
    expect(changed).toBe('{"a":'.repeat(depth) + '-0' + ',"b":2}' + ',"b":1}'.repeat(depth - 1));
  });

  it('writes a new value 100,000 levels deep, where JSON.stringify would overflow', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < depth; i++) deep = { d: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const out = rewriteJson('{"keep":1E5}', (root) => ((root as Json).deep = deep)).text;
    expect(out).toBe('{"keep":1E5,"deep":' + '{"d":'.repeat(depth) + '"end"' + '}'.repeat(depth) + '}');
  });
});
