import { describe, expect, it } from 'vitest';
import { gluedRecords, objectStart } from '../../src/io/glued-records.js';
import { joinLines, recordText, splitRecords, type PhysicalLine } from '../../src/io/split-records.js';

const anyObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
const records = (line: string) => gluedRecords(Buffer.from(line), anyObject)?.records.map((record) => line.slice(record.start, record.end));

describe('gluedRecords', () => {
  it.each([
    ['{"a":1}{"b":2}', ['{"a":1}', '{"b":2}']],
    ['{"a":"x\\"}{"}{"b":2}', ['{"a":"x\\"}{"}', '{"b":2}']],
    // torn inside a string, inside an escape, after a backslash run, mid-number, mid-key
    ['{"a":"tor{"b":"}{"}', ['{"b":"}{"}']],
    ['{"a":"to\\{"b":2}', ['{"b":2}']],
    ['{"a":"\\\\\\\\{"b":"\\\\"}', ['{"b":"\\\\"}']],
    ['{"a":12{"b":2}', ['{"b":2}']],
    ['{"a{"b":[{"c":"]}"}]}', ['{"b":[{"c":"]}"}]}']],
    ['{"torn":"x{"b":1}{"c":2}', ['{"b":1}', '{"c":2}']],
  ])('%s', (line, expected) => {
    expect(records(line)).toEqual(expected);
  });

  it('finds nothing in a line that is one broken value, or a fragment of a pretty-printed one', () => {
    expect(records('{"a":1,')).toBeUndefined();
    expect(records('      "arguments": "{}"')).toBeUndefined();
    expect(records('      "function": {"name": "read", "arguments": "{}"},')).toEqual(undefined);
  });

  it('a value left whole inside the torn record counts only if the format takes it for a line', () => {
    const line = '{"type":"message","content":[{"type":"text"}{"type":"message","id":"b"}';
    const isLine = (value: unknown) => anyObject(value) && (value as { type?: string }).type === 'message';
    expect(gluedRecords(Buffer.from(line), isLine)?.records.map((record) => line.slice(record.start, record.end))).toEqual(['{"type":"message","id":"b"}']);
    expect(records(line)).toEqual(['{"type":"text"}', '{"type":"message","id":"b"}']);
  });

  it('objectStart counts from a closing brace back to its opening one, strings and escapes included', () => {
    const text = Buffer.from('xx{"a":"}\\"{","b":{"c":[1]}}');
    expect(objectStart(text, 0, text.length)).toBe(2);
    expect(objectStart(text, 3, text.length)).toBe(-1);
  });
});

const lines = (...texts: string[]): PhysicalLine[] => texts.map((text, i) => ({ bytes: Buffer.from(text), eol: i === texts.length - 1 ? 'none' : 'lf' }));

describe('splitRecords and joinLines', () => {
  it('joins a string cut by raw breaks, escaping them and any raw control character in it', () => {
    const found = splitRecords(lines('{"a":"one', '', 'two\tthree"}'), anyObject);
    expect(found).toHaveLength(1);
    expect(found[0]!.bytes.toString()).toBe('{"a":"one\\n\\ntwo\\tthree"}');
    expect(found[0]!.value).toEqual({ a: 'one\n\ntwo\tthree' });
    expect(found[0]!.insideString).toBe(true);
  });

  it('drops breaks between tokens (pretty-printed), keeps the rest', () => {
    const joined = joinLines(lines('{', '  "a": [1,', '    2]', '}'));
    expect(joined.bytes.toString()).toBe('{  "a": [1,    2]}');
    expect(joined.insideString).toBe(false);
  });

  it('joins only what closes at a line end and parses as a record', () => {
    expect(splitRecords(lines('{"a":"x', 'y"} trailing'), anyObject)).toEqual([]);
    expect(splitRecords(lines('{"a":1}', 'garbage'), anyObject)).toEqual([]);
    expect(splitRecords(lines('{', '}'), anyObject)).toEqual([]);
    const found = splitRecords(lines('junk', '{"a":"x', 'y"}', '{"b":"p', 'q"}'), anyObject);
    expect(found.map((record) => [record.first, record.last])).toEqual([[1, 2], [3, 4]]);
  });

  it('a long run of garbage lines is looked at a bounded number of times', () => {
    const garbage = Array.from({ length: 20_000 }, (_, i) => `{"never closed ${i}`);
    expect(splitRecords(lines(...garbage), anyObject)).toEqual([]);
  });

  it('recordText gives a record read back by its byte range on one line', () => {
    expect(recordText(Buffer.from('{"a":"x\r\ny"}'))).toBe('{"a":"x\\r\\ny"}');
    expect(recordText(Buffer.from('{"a":1}'))).toBe('{"a":1}');
  });
});
