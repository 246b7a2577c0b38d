import { describe, expect, it } from 'vitest';
import { applySlimEdits, callTarget, trimmedText } from '../../src/formats/slim-edits.js';
import { slotAt, valueAt } from '../../src/formats/json-pointer.js';
import { piSlim } from '../../src/formats/pi/slim.js';
import { codexSlim } from '../../src/formats/codex/slim.js';

describe('trimmedText', () => {
  it.each([
    { text: 'abcdefghij', head: 2, tail: 3, stub: '…', out: 'ab…hij' },
    { text: 'abcdef', head: 3, tail: 3, stub: '…', out: 'abcdef' },
    // A cut inside a surrogate pair steps off it, so no half of 😀 is left.
    { text: 'a😀bcdefg😀h', head: 2, tail: 2, stub: '|', out: 'a|h' },
    { text: 'ab😀cdefgh', head: 3, tail: 1, stub: '|', out: 'ab|h' },
  ])('$text keeps $head + $tail', ({ text, head, tail, stub, out }) => {
    expect(trimmedText(text, head, tail, stub)).toBe(out);
  });
});

describe('JSON Pointers', () => {
  const value = { a: [{ 'b/c': 1, '~d': 2 }] };
  it.each([
    ['/a/0/b~1c', 1],
    ['/a/0/~0d', 2],
    ['/a/1', undefined],
    ['/a/01', undefined],
    ['/x', undefined],
    ['', undefined],
  ])('%s', (pointer, expected) => {
    expect(valueAt(value, pointer)).toBe(expected);
  });
  it('names the slot of an array item', () => {
    expect(slotAt(value, '/a/0')).toEqual({ container: value.a, key: 0 });
  });
});

describe('applySlimEdits', () => {
  it('stubs, trims and drops by pointer, drops from the last item back', () => {
    const line = {
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'a' }, { type: 'image', data: 'xxxx', mimeType: 'image/png' }, { type: 'thinking', thinking: 'b' }, { type: 'text', text: '0123456789' }],
      },
    };
    applySlimEdits(
      line,
      [
        { kind: 'drop-parts', pointers: ['/message/content/0', '/message/content/2'] },
        { kind: 'stub-media', pointer: '/message/content/1', text: '[image]' },
        { kind: 'trim-text', pointer: '/message/content/3/text', head: 2, tail: 2, stub: '..' },
      ],
      piSlim,
    );
    expect(line.message.content).toEqual([{ type: 'text', text: '[image]' }, { type: 'text', text: '01..89' }]);
  });

  it('leaves a line alone when its pointers are not there', () => {
    const line = { message: { content: [] } };
    applySlimEdits(line, [{ kind: 'trim-text', pointer: '/message/content/0/text', head: 1, tail: 1, stub: '' }], piSlim);
    expect(line).toEqual({ message: { content: [] } });
  });
});

describe('callTarget', () => {
  it.each([
    [{ file_path: '/a/b.ts', limit: 3 }, '/a/b.ts'],
    [JSON.stringify({ command: 'ls   -la\n  src' }), 'ls -la src'],
    [{ cmd: ['git', 'status'] }, 'git status'],
    [{ other: 1 }, undefined],
    ['not json', undefined],
    [{ command: 'x'.repeat(300) }, `${'x'.repeat(159)}…`],
  ])('%j', (args, expected) => {
    expect(callTarget(args)).toBe(expected);
  });
});

describe('codexSlim', () => {
  it('shows tool output text, images in prompts, calls and reasoning (whole line) as parts', () => {
    const output = { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'x'.repeat(50) } };
    expect(codexSlim.parts(output)).toEqual([{ kind: 'result-text', pointer: '/payload/output', length: 50, text: 'x'.repeat(50), callId: 'c1' }]);
    const prompt = { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }] } };
    expect(codexSlim.parts(prompt)).toEqual([{ kind: 'media', pointer: '/payload/content/1', media: 'image', base64Length: 12, mediaType: 'image/png', inToolResult: false, callId: undefined }]);
    const call = { type: 'response_item', payload: { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["ls","-la"]}' } };
    expect(codexSlim.parts(call)).toEqual([{ kind: 'call', callId: 'c1', name: 'shell', target: 'ls -la' }]);
    const reasoning = { type: 'response_item', payload: { type: 'reasoning', summary: [], encrypted_content: 'gAAA' } };
    expect(codexSlim.parts(reasoning)).toEqual([{ kind: 'thinking', pointer: '', length: JSON.stringify(reasoning.payload).length }]);
  });

  it('writes a stub as an input_text part', () => {
    const prompt = { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] } };
    applySlimEdits(prompt, [{ kind: 'stub-media', pointer: '/payload/content/0', text: '[image]' }], codexSlim);
    expect(prompt.payload.content).toEqual([{ type: 'input_text', text: '[image]' }]);
  });
});
