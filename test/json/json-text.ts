import fc from 'fast-check';

/**
 * JSON texts the way odd writers spell them: whitespace anywhere it is allowed, numbers that
 * do not survive a round trip through a double (64-bit ids, 1e400, -0, 1.0), escapes where
 * none are needed, and duplicate keys. Each member is kept in parts so a test knows its spans.
 */
export interface MemberText {
  key: string;
  /** Key, whitespace, colon, whitespace: everything before the value. */
  head: string;
  value: string;
}

export const whitespace = fc.stringMatching(/^[ \t\n\r]{0,3}$/);

export const oddNumber = fc.oneof(
  fc.constantFrom('9007199254740993', '-9223372036854775808', '18446744073709551615', '1e400', '-1e400', '1e-400', '-0', '-0.0', '0e0', '1.0', '1E5', '2.50', '1e+2', '0.1E-2', '123456789012345678901234567890'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

const stringPart = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s).slice(1, -1)),
  fc.constantFrom('\\u00e9', '\\/', '\\n', '\\"', '\\\\', '\\ud83d\\ude00', '\\ud800', '\\u2028', '\\b\\f\\r\\t', 'é', '😀', '\u2028'),
);
export const oddString = fc.array(stringPart, { maxLength: 4 }).map((parts) => `"${parts.join('')}"`);

/** Keys from a small set, spelled in several ways, so objects often hold the same key twice. */
export const oddKey = fc.constantFrom('"a"', '"b"', '"\\u0061"', '"id"', '"__proto__"', '"1"', '"0"', '"toJSON"', '"constructor"', '""');

const scalar = fc.oneof(oddNumber, oddString, fc.constantFrom('true', 'false', 'null'));

export function membersText(members: MemberText[], gaps: string[]): string {
  return members.length === 0 ? `{${gaps[0] ?? ''}}` : `{${gaps[0] ?? ''}${members.map((m) => m.head + m.value).join(`${gaps[1] ?? ''},${gaps[2] ?? ''}`)}${gaps[3] ?? ''}}`;
}

const { value: oddJson } = fc.letrec<{ value: string; object: string; array: string; member: MemberText }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), tie('array')),
  member: fc.tuple(oddKey, whitespace, whitespace, tie('value')).map(([key, before, after, value]) => ({ key, head: `${key}${before}:${after}`, value })),
  object: fc.tuple(fc.array(tie('member'), { maxLength: 5 }), fc.array(whitespace, { minLength: 4, maxLength: 4 })).map(([members, gaps]) => membersText(members, gaps)),
  array: fc.tuple(fc.array(tie('value'), { maxLength: 5 }), whitespace, whitespace).map(([items, before, after]) => `[${before}${items.join(`${after},${before}`)}${after}]`),
}));

/** Any JSON text, with optional whitespace around it. */
export const jsonText = fc.tuple(whitespace, fc.oneof(oddJson, fc.json()), whitespace).map(([a, text, b]) => a + text + b);

/** A root object whose members are known part by part. */
export const objectText = fc.tuple(fc.array(fc.tuple(oddKey, whitespace, whitespace, oddJson), { maxLength: 6 }), fc.array(whitespace, { minLength: 4, maxLength: 4 })).map(([parts, gaps]) => {
  const members = parts.map(([key, before, after, value]) => ({ key, head: `${key}${before}:${after}`, value }));
  return { members, gaps, text: membersText(members, gaps) };
});

/**
 * The value with numbers tagged so `-0` and `0` differ, and objects as ordered entry lists, so
 * two values compare equal only when key order and every number agree.
 */
export function shape(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '<-0>' : value;
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) return Object.keys(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]);
  return value;
}
