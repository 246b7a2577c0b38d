import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimmedText } from '../../src/formats/slim-edits.js';
import { trimmedBytes, valueSpan } from '../../src/json/byte-spans.js';
import { objectText, oddString } from './json-text.js';

const NAMES = ['a', 'b', 'id', '__proto__', '1', '0', 'toJSON', 'constructor', ''];

describe('valueSpan', () => {
  it('finds the value of a member spelled once without escapes, or gives up, never a wrong one', () => {
    fc.assert(
      fc.property(objectText, ({ members, text }) => {
        const bytes = Buffer.from(text, 'utf8');
        const escaped = members.some((m) => m.key.includes('\\'));
        for (const name of NAMES) {
          const span = valueSpan(bytes, `/${name}`);
          const spelled = members.filter((m) => m.key === JSON.stringify(name));
          if (spelled.length === 1 && !escaped) {
            expect(span).toBeDefined();
            expect(bytes.toString('utf8', span!.start, span!.end)).toBe(spelled[0]!.value);
          } else expect(span).toBeUndefined();
        }
      }),
    );
  });

  it('follows a pointer through objects and arrays, by byte offsets', () => {
    const text = '{"x":"é😀","message" : {"content":[ {"t":1}, {"text":"a\\"b}","n":[1,{"y":"]"}]} ]},"last":true}';
    const bytes = Buffer.from(text, 'utf8');
    const at = (pointer: string) => {
      const span = valueSpan(bytes, pointer);
      return span === undefined ? undefined : bytes.toString('utf8', span.start, span.end);
    };
    expect(at('/message/content/1/text')).toBe('"a\\"b}"');
    expect(at('/message/content/1/n')).toBe('[1,{"y":"]"}]');
    expect(at('/message/content/0/t')).toBe('1');
    expect(at('/last')).toBe('true');
    expect(at('/message/content/2')).toBeUndefined();
    expect(at('/message/content/x')).toBeUndefined();
    expect(at('/missing')).toBeUndefined();
  });

  it('gives up on a key spelled twice at any level of the way', () => {
    const bytes = Buffer.from('{"parentUuid":"a","x":1,"parentUuid":"b"}', 'utf8');
    expect(valueSpan(bytes, '/parentUuid')).toBeUndefined();
    expect(valueSpan(Buffer.from('{"m":{"c":1,"c":2},"z":0}'), '/m/c')).toBeUndefined();
  });
});

describe('trimmedBytes', () => {
  // Long strings of escapes, multi-byte and four-byte characters and lone surrogates, so cuts land everywhere.
  const longString = fc.array(oddString, { minLength: 1, maxLength: 12 }).map((parts) => `"${parts.map((s) => s.slice(1, -1)).join('')}"`);

  it('cuts the bytes where trimmedText cuts the parsed string, keeping head and tail as written', () => {
    fc.assert(
      fc.property(longString, fc.nat(30), fc.nat(30), (text, head, tail) => {
        const line = `{"k":${text}}`;
        const bytes = Buffer.from(line, 'utf8');
        const span = valueSpan(bytes, '/k')!;
        const value = JSON.parse(text) as string;
        const cut = trimmedBytes(bytes, span, head, tail);
        if (cut === undefined) {
          expect(trimmedText(value, head, tail, 'STUB')).toBe(value);
          return;
        }
        const out = Buffer.concat([bytes.subarray(0, cut.start), Buffer.from('STUB'), bytes.subarray(cut.end)]).toString('utf8');
        expect((JSON.parse(out) as { k: string }).k).toBe(trimmedText(value, head, tail, 'STUB'));
        expect(out.startsWith(line.slice(0, 5))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
