import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copilotCliFormat } from '../../../src/formats/copilot-cli/index.js';
import type { TranscriptFormat } from '../../../src/formats/format.js';
import { readsAsLatin1 } from '../../../src/io/line-text.js';
import { loadBytes } from '../../../src/pipeline/load-transcript.js';

const FIXTURES = 'fixtures/copilot-cli';
const fixtureLines = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) => readFileSync(`${FIXTURES}/${name}`, 'utf8').split('\n'))
  .flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });

/** Non-ASCII a session may hold anywhere: accents, the whitespace trim knows (a blank message), CJK, emoji, a line separator. */
const extra = fc.constantFrom('é', '\u00a0', '\u3000', '\u2028', '中文', '😀', 'Ã', '\u0085');

/** A fixture event with non-ASCII written into some of its strings (ids, names, agents, models, contents) or put in place of them. */
const event = fc.tuple(fc.constantFrom(...fixtureLines), fc.infiniteStream(fc.tuple(fc.nat(5), extra))).map(([value, choices]) => {
  const iterator = choices[Symbol.iterator]();
  const change = (inner: unknown): unknown => {
    if (typeof inner === 'string') {
      const [how, text] = iterator.next().value as [number, string];
      return how === 0 ? inner + text : how === 1 ? text + inner : how === 2 ? text : inner;
    }
    if (Array.isArray(inner)) return inner.map(change);
    if (inner === null || typeof inner !== 'object') return inner;
    return Object.fromEntries(Object.entries(inner).map(([key, field]) => [key, change(field)]));
  };
  return change(value);
});

describe('Copilot CLI lines read as latin1', () => {
  it('decode to the entries and decoder state their UTF-8 text gives', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 12 }), (events) => {
        const utf8 = copilotCliFormat.createDecoder();
        const latin1 = copilotCliFormat.createDecoder();
        events.forEach((value, index) => {
          const bytes = Buffer.from(JSON.stringify(value), 'utf8');
          const read = !isAscii(bytes) && readsAsLatin1(bytes);
          expect(latin1.decode(JSON.parse(bytes.toString(read ? 'latin1' : 'utf8')), index + 1, index, read)).toEqual(utf8.decode(JSON.parse(bytes.toString('utf8')), index + 1, index));
          expect(latin1.state()).toEqual(utf8.state());
        });
      }),
      { numRuns: 400 },
    );
  });

  it('load into the transcript of a load that reads every line as UTF-8', () => {
    const utf8Only: TranscriptFormat = { ...copilotCliFormat, createDecoder: (state) => Object.assign(copilotCliFormat.createDecoder(state), { readsLatin1: false }) };
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 30 }), (events) => {
        const bytes = Buffer.from([fixtureLines[0], ...events].map((value) => JSON.stringify(value)).join('\n') + '\n');
        const read = loadBytes(bytes, copilotCliFormat);
        const expected = loadBytes(bytes, utf8Only);
        const entries = (transcript: typeof read) => Array.from({ length: transcript.entries.length }, (_, i) => transcript.entries.at(i));
        expect(entries(read)).toEqual(entries(expected));
        expect(read.lineIssues).toEqual(expected.lineIssues);
      }),
      { numRuns: 150 },
    );
  });
});
