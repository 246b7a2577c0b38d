/**
 * How slim-resume reads the request a client sent (scripts/resume/wire.mjs): the same
 * conversation in each wire format gives the same turns, and the pairing check names each way a
 * request breaks the providers' pairing rule; the estimator counts an image by its size on the
 * model's side, not its base64.
 */
import { describe, expect, it } from 'vitest';
import { noisePng } from '../../scripts/oversized-sessions.mjs';
import { estimatorFor, requestTokens } from '../../scripts/resume/request-tokens.mjs';
import { imagesIn, pairing, turnsOf, type Turn, type Wire } from '../../scripts/resume/wire.mjs';

const PNG = noisePng(8, 8);

/** One prompt, one call with an image in its result, one answer, the next prompt: in each wire's words. */
const BODIES: Record<Wire, unknown> = {
  anthropic: {
    messages: [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'body' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: 'continue' }] },
    ],
  },
  responses: {
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'read it' }] },
      { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'body' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'continue' }] },
    ],
  },
  chat: {
    messages: [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'body' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'continue' },
    ],
  },
  gemini: {
    contents: [
      { role: 'user', parts: [{ text: 'read it' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'read', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read', response: { output: 'body' } } }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
      { role: 'model', parts: [{ text: 'done' }] },
      { role: 'user', parts: [{ text: 'continue' }] },
    ],
  },
};

const userTexts = (turns: Turn[]) => turns.filter((t) => t.role === 'user').flatMap((t) => t.texts);

describe('the same conversation in each wire format', () => {
  for (const [wire, body] of Object.entries(BODIES) as Array<[Wire, unknown]>) {
    it(`${wire}: its prompts, one call answered once, its image`, () => {
      const turns = turnsOf(wire, body);
      expect(userTexts(turns)).toEqual(['read it', 'continue']);
      expect(turns.flatMap((t) => t.calls)).toEqual(['c1']);
      expect(turns.flatMap((t) => t.results.map((r) => r.id))).toEqual(['c1']);
      expect(pairing(turns)).toEqual([]);
      expect(imagesIn(body)).toHaveLength(1);
    });
  }
});

const turn = (role: string, calls: string[] = [], results: string[] = []): Turn => ({ role, texts: [], calls, results: results.map((id) => ({ id, text: '' })) });

describe('pairing: what the providers refuse', () => {
  const cases: Array<{ name: string; turns: Turn[]; problems: string[] }> = [
    { name: 'answered in the next turn', turns: [turn('assistant', ['a']), turn('user', [], ['a'])], problems: [] },
    { name: 'one result per tool message (Chat)', turns: [turn('assistant', ['a', 'b']), turn('tool', [], ['a']), turn('tool', [], ['b'])], problems: [] },
    { name: 'a call never answered', turns: [turn('assistant', ['a']), turn('user')], problems: ['call a answered 0 times'] },
    { name: 'answered after the next assistant turn', turns: [turn('assistant', ['a']), turn('assistant'), turn('user', [], ['a'])], problems: ['call a answered 0 times'] },
    { name: 'answered twice', turns: [turn('assistant', ['a']), turn('user', [], ['a', 'a'])], problems: ['call a answered 2 times'] },
    { name: 'a result with no call', turns: [turn('user', [], ['z'])], problems: ['result z with no call'] },
    { name: 'a call id used twice', turns: [turn('assistant', ['a']), turn('user', [], ['a']), turn('assistant', ['a']), turn('user', [], ['a'])], problems: ['call a sent twice'] },
  ];
  for (const { name, turns, problems } of cases) it(name, () => expect(pairing(turns)).toEqual(problems));
});

describe('request tokens', () => {
  it('counts an image at a flat size, not its base64', () => {
    const big = noisePng(400, 400);
    const withImage = requestTokens({ messages: [{ role: 'user', content: [{ type: 'image', source: { data: big } }] }] });
    const without = requestTokens({ messages: [{ role: 'user', content: [{ type: 'image', source: { data: '' } }] }] });
    expect(withImage.images).toBe(1);
    expect(withImage.tokens - without.tokens).toBe(1_600);
    expect(big.length / 3).toBeGreaterThan(100_000);
  });
  it('counts text at three bytes a token of its JSON, rounded up', () => {
    // 298 letters and their two quotes.
    expect(requestTokens('x'.repeat(298)).tokens).toBe(100);
    expect(requestTokens('x'.repeat(299)).tokens).toBe(101);
    expect(requestTokens('x', 'anthropic').estimator).toBe(estimatorFor('gemini'));
  });
  it('counts an OpenAI-format request with o200k_base: the JSON structure too, an image still flat', () => {
    expect(estimatorFor('responses')).toMatch(/^o200k_base/);
    expect(estimatorFor('chat')).toBe(estimatorFor('responses'));
    // "hello world" is 3 tokens in o200k_base: `"`, `hello`, ` world"` … counted as the JSON string.
    const hello = requestTokens('hello world', 'responses');
    expect(hello.estimator).toBe(estimatorFor('responses'));
    expect(hello.tokens).toBeGreaterThanOrEqual(3);
    expect(hello.tokens).toBeLessThanOrEqual(4);
    // English prose runs near 4-5 bytes a token in o200k, well under bytes/3.
    const prose = { input: [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog. '.repeat(200) }] };
    const o200k = requestTokens(prose, 'responses').tokens;
    expect(o200k).toBeLessThan(requestTokens(prose).tokens * 0.8);
    expect(o200k).toBeGreaterThan(200 * 10);
    // The strings alone, unescaped and without keys: what the JSON's own escapes and structure add.
    expect(hello.textTokens).toBe(2);
    const escaped = { input: [{ type: 'function_call_output', call_id: 'c1', output: 'line "one"\n'.repeat(100) }] };
    expect(requestTokens(escaped, 'responses').textTokens).toBeLessThan(requestTokens(escaped, 'responses').tokens - 100);
    // A special token's text in a transcript is plain text: counted, not refused.
    expect(requestTokens('<|endoftext|>', 'chat').tokens).toBeGreaterThan(1);
    const big = noisePng(400, 400);
    const image = (url: string) => ({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: url }] }] });
    const withImage = requestTokens(image(`data:image/png;base64,${big}`), 'responses');
    expect(withImage.images).toBe(1);
    expect(withImage.tokens - requestTokens(image(''), 'responses').tokens).toBe(1_600);
  });
});
