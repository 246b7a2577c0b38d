import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/explain/catalogue.js';
import type { SizeQuote } from '../../src/explain/catalogue-entry.js';
import { recognise } from '../../src/explain/recognise.js';
import { sizeCatalogue } from '../../src/explain/size-catalogue.js';
import { PROVIDER_IDS } from '../../src/providers/provider-id.js';
import { sizeText, type Route, type SizeAt, type SizeProblem } from '../../src/providers/size/index.js';
import { SIZE_SAMPLES } from './size-samples.js';

describe('the size family of provider errors', () => {
  it('has a sample for every size entry, and every size entry says what it measures', () => {
    expect(Object.keys(SIZE_SAMPLES).sort()).toEqual(sizeCatalogue.map((entry) => entry.ref).sort());
    for (const entry of sizeCatalogue) expect(entry.size, entry.ref).toBeDefined();
  });

  it.each(Object.entries(SIZE_SAMPLES))('%s: recognised, with its numbers and indices', (ref, sample) => {
    const error = recognise(sample.text);
    expect(error.entry.ref).toBe(ref);
    expect(error.numbers).toEqual(sample.numbers);
    expect(error.messageIndex).toBe(sample.messageIndex);
    expect(error.blockIndex).toBe(sample.blockIndex);
  });

  it('the pairing and contract texts read no numbers', () => {
    for (const entry of catalogue.filter((item) => item.size === undefined)) expect(entry.numbers, entry.ref).toBeUndefined();
    expect(recognise('messages.14: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Abc').numbers).toEqual({});
  });
});

describe('size texts as users paste them', () => {
  it.each([
    ['the issue’s first paste', 'prompt is too long: 215366 tokens > 200000 maximum', 'anth-prompt-too-long', { tokens: 215366, limit: 200000 }],
    [
      'the issue’s second paste',
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.",
      'oai-chat-context-length',
      { tokens: 130532, limit: 128000 },
    ],
    ['Claude Code capitalising it', 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"Prompt is too long: 209062 tokens > 199999 maximum"}}', 'anth-prompt-too-long', { tokens: 209062, limit: 199999 }],
    ['a log line that escaped the body', String.raw`ERROR {\"type\":\"error\",\"error\":{\"message\":\"prompt is too long: 214420 tokens > 200000 maximum\"}}`, 'anth-prompt-too-long', { tokens: 214420, limit: 200000 }],
    ['thousands separators', 'The input token count (1,200,293) exceeds the maximum number of tokens allowed (1,048,576).', 'gem-input-token-count', { tokens: 1200293, limit: 1048576 }],
    ['Copilot without its figures', 'The request is too large to send through CAPI Responses.', 'cp-capi-too-large', {}],
    ['pi’s lowercase Bedrock pattern', 'input is too long for requested model', 'brc-input-too-long', {}],
  ])('%s', (_, text, ref, numbers) => {
    const error = recognise(text);
    expect(error.entry.ref).toBe(ref);
    expect(error.numbers).toEqual(numbers);
  });

  it('an image at the top of a user message has no inner index; one inside a tool result has', () => {
    const top = recognise('messages.12.content.1.image.source.base64: image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes');
    expect(top).toMatchObject({ messageIndex: 12, blockIndex: 1, numbers: { bytes: 7340032, limit: 5242880 } });
    expect(top.numbers.innerIndex).toBeUndefined();
    expect(recognise(SIZE_SAMPLES['anth-image-bytes']!.text).numbers.innerIndex).toBe(0);
  });

  it('names the platform of an Anthropic size error', () => {
    const vertex = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: SIZE_SAMPLES['anth-max-tokens-exceed']!.text }, request_id: 'req_vrtx_011CX' });
    expect(recognise(vertex).provider).toBe('Anthropic on Vertex AI');
  });

  it('a figure past 2^53 is not read', () => {
    const error = recognise(`prompt is too long: ${'9'.repeat(40)} tokens > 200000 maximum`);
    expect(error.numbers).toEqual({ limit: 200000 });
  });

  it('a string-length error names the message, not the id-length error of the same shape', () => {
    expect(recognise("Invalid 'messages[3].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 57 instead.").entry.ref).toBe('oai-chat-tool-call-id-maxlen');
    expect(recognise("Invalid 'input[5].output': string too long. Expected a string with maximum length 10485760, but got a string with length 11000000 instead.")).toMatchObject({
      messageIndex: 5,
      entry: { ref: 'resp-string-too-long' },
      numbers: { length: 11000000, limit: 10485760 },
    });
  });
});

describe('the size rules’ own provider texts, run backwards', () => {
  // Every wording a size finding can quote (src/providers/size/size-texts.ts) is one explain recognises, as the same kind of limit.
  const kinds: Record<SizeProblem, SizeQuote[]> = {
    context: ['tokens'],
    requestBytes: ['bytes'],
    stringLength: ['length'],
    toolCalls: ['calls'],
    imageBytes: ['image-bytes'],
    imagePixels: ['image-pixels'],
    manyImagePixels: ['image-pixels'],
    media: ['media'],
    pdfPages: ['pages'],
  };
  const routes: Route[] = [...PROVIDER_IDS, 'copilot', 'dashscope'];
  const at: SizeAt = { message: 6, block: 1, inner: 0, inToolResult: true, found: 6_521_204, limit: 5_242_880, images: 102, pages: 0 };
  const texts = routes.flatMap((route) =>
    (Object.keys(kinds) as SizeProblem[]).flatMap((problem) => {
      const said = sizeText(route, problem, at);
      return said === undefined ? [] : [[`${route} ${problem}`, said, problem] as const];
    }),
  );

  it.each(texts)('%s', (_, said, problem) => {
    const error = recognise(said);
    // OpenAI's image text also covers a format it does not take: the image-limits rule's search finds it.
    if (error.entry.ref === 'oai-chat-image-format-size') expect(error.entry.rules).toContain('image-limits');
    else expect(kinds[problem]).toContain(error.entry.size);
    if (problem === 'imageBytes' && error.entry.provider === 'Anthropic') expect(error).toMatchObject({ messageIndex: 6, blockIndex: 1, numbers: { bytes: 6_521_204, innerIndex: 0 } });
  });
});
