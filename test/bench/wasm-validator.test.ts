import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the bench's validator is a plain Node script
import { compilePaths, fromValue, wasmValidator } from '../../bench/wasm/validator.mjs';

// bench/parse-floor.mjs times the WebAssembly validator against JSON.parse: its figures mean
// something only if it does JSON.parse's whole check, accepting and refusing exactly the same
// lines (read as latin1, as scan reads most lines), and if the cut parse leaves every value
// but the long strings as JSON.parse makes them.

interface Validator {
  validate(line: Buffer): boolean;
  cutParse(line: Buffer): unknown;
  fields(line: Buffer, paths: unknown): unknown[] | undefined;
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const parses = (line: Buffer) => {
  try {
    JSON.parse(line.toString('latin1'));
    return true;
  } catch {
    return false;
  }
};

/** Bytes that matter to a JSON parser, and a few that never may appear bare in a string. */
const BYTES = latin1('{}[]",:\\/-+.0123456789eEtrufalsnbu \t\r\n\x00\x08\x1f\x7f\x80\xe9\xff');

const EDGES = [
  '0', '-0', '1e5', '1E+5', '-1.5e-3', '01', '1.', '.5', '-', '+1', '1e', '1e+', 'tru', 'true', 'nul', 'null', 'falsey', 'false',
  '"\\u00e9"', '"\\u00g9"', '"\\uD800"', '"\\x"', '"a\tb"', '"a\x7fb"', '"\xe9"', '[1,]', '{"a":1,}', '{"a" 1}', '[]', '{}', ' [ ] ',
  '[[[[]]]]', '"\\/"', '{"a":[1,{"b":null}]}', '\xef\xbb\xbf{}', '[1 2]', '{,}', '[,1]', '""', '"', '{"a":"\\"}', '\n{}\r\n', '\x0b{}',
  '{"a":1}{"b":2}', '{"a":1}\x00', '{1:2}', "{'a':1}", '[1]]', '[[1]', '"abcdefghijklmnopqrstuvwxyz0123456789"', '"abcdefghijklmno\\"pq"',
];

/** A JSON text as a line, or that text with a few bytes changed, put in or taken out. */
const lines = fc.oneof(
  fc.constantFrom(...EDGES).map(latin1),
  fc.json().map((text) => Buffer.from(text)),
  fc
    .tuple(
      fc.oneof(fc.constantFrom(...EDGES), fc.json()),
      fc.array(fc.tuple(fc.nat(2), fc.nat(), fc.nat(BYTES.length - 1)), { minLength: 1, maxLength: 3 }),
    )
    .map(([text, edits]) => {
      let line = Buffer.from(text);
      for (const [kind, place, byte] of edits) {
        const at = line.length === 0 ? 0 : place % line.length;
        if (kind === 0 && line.length > 0) line[at] = BYTES[byte]!;
        else if (kind === 1) line = Buffer.concat([line.subarray(0, at), BYTES.subarray(byte, byte + 1), line.subarray(at)]);
        else line = Buffer.concat([line.subarray(0, at), line.subarray(at + 1)]);
      }
      return line;
    }),
);

/** Every string value emptied, keys kept: what a parse of the line with every string cut gives. */
function emptied(value: unknown): unknown {
  if (typeof value === 'string') return '';
  if (Array.isArray(value)) return value.map(emptied);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, emptied(inner)]));
  return value;
}

describe('the WebAssembly validator of bench/parse-floor.mjs', () => {
  it('accepts exactly the lines JSON.parse accepts, read as latin1', async () => {
    const wasm = (await wasmValidator()) as Validator;
    for (const edge of EDGES) expect([edge, wasm.validate(latin1(edge))]).toEqual([edge, parses(latin1(edge))]);
    fc.assert(
      fc.property(lines, (line) => wasm.validate(line) === parses(line)),
      { numRuns: 20_000 },
    );
  });

  it('accepts a line of any length, and one that ends in the middle of its last 16 bytes', async () => {
    const wasm = (await wasmValidator()) as Validator;
    const long = `{"text":"${'x'.repeat(300_000)}","n":1}`;
    expect(wasm.validate(latin1(long))).toBe(true);
    for (let cut = 1; cut < 20; cut++) expect(wasm.validate(latin1(long.slice(0, -cut)))).toBe(false);
  });

  it('parses a line as JSON.parse does when nothing is cut, and with every string value emptied when all are', async () => {
    const whole = (await wasmValidator(2 ** 31 - 1)) as Validator;
    const cut = (await wasmValidator(0)) as Validator;
    fc.assert(
      fc.property(fc.json(), (text) => {
        const line = Buffer.from(text);
        const value = JSON.parse(line.toString('latin1'));
        expect(whole.cutParse(line)).toEqual(value);
        expect(cut.cutParse(line)).toEqual(emptied(value));
      }),
      { numRuns: 5_000 },
    );
    expect(cut.cutParse(latin1('[1,'))).toBeUndefined();
  });

  it('cuts a string whose content is longer than the limit, counted in bytes as written, and no other', async () => {
    const wasm = (await wasmValidator(3)) as Validator;
    expect(wasm.cutParse(latin1('{"abcd":["abc","abcd","\\n",{"k":"a\\nb"}]}'))).toEqual({ abcd: ['abc', '', '\n', { k: '' }] });
  });

  it('reads the fields a path names from its tape as they are read from the parsed line', async () => {
    const wasm = (await wasmValidator()) as Validator;
    // Values whose keys the paths name, written twice at times, with escapes and non-ASCII in their strings;
    // an object as its list of fields, so that a key written twice stays in the line.
    type Value = string | number | boolean | null | Value[] | { fields: Array<[string, Value]> };
    const { value } = fc.letrec<{ value: Value }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.constantFrom('x', '', 'é\u00e9', '\u0001', 'a"b\\c\n'), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', '__proto__'), tie('value')), { maxLength: 5 }).map((fields) => ({ fields })),
      ),
    }));
    const write = (v: Value): string =>
      Array.isArray(v) ? `[${v.map(write).join(',')}]` : v !== null && typeof v === 'object' ? `{${v.fields.map(([key, inner]) => `${JSON.stringify(key)}:${write(inner)}`).join(',')}}` : JSON.stringify(v);
    const segments = ['a', 'b', 'c', 'a[]', 'b[]', '__proto__'];
    const paths = fc.array(fc.tuple(fc.array(fc.constantFrom(...segments), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([path, presence]) => path.join('.') + (presence ? '#' : '')), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(value, paths, (v, named) => {
        const line = Buffer.from(write(v));
        const compiled = compilePaths(named);
        expect(wasm.fields(line, compiled)).toEqual(fromValue(JSON.parse(line.toString('latin1')), compiled));
      }),
      { numRuns: 5_000 },
    );
    expect(wasm.fields(latin1('{"a":'), compilePaths(['a']))).toBeUndefined();
  });
});
