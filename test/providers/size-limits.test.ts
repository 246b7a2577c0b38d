import { describe, expect, it } from 'vitest';
import { contextWindow, mediaLimit, sizeLimits, sizeText } from '../../src/providers/size/index.js';

describe('contextWindow', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'anthropic', 200_000, 'claude-sonnet-4'],
    ['claude-sonnet-4-6', 'anthropic', 1_000_000, 'claude-sonnet-4-6'],
    ['us.anthropic.claude-opus-4-6-v1', 'bedrock', 1_000_000, 'claude-opus-4-6+'],
    ['claude-opus-4-5', 'anthropic', 200_000, 'claude'],
    ['claude-haiku-4-5-20251001', 'anthropic', 200_000, 'claude'],
    ['claude-sonnet-4-5[1m]', 'anthropic', 1_000_000, 'claude-[1m]'],
    ['anthropic/claude-opus-4.7', 'openai-chat', 1_000_000, 'claude-opus-4-6+'],
    ['gpt-5-codex', 'openai-responses', 272_000, 'gpt-5'],
    ['gpt-5.2-codex', 'openai-responses', 272_000, 'gpt-5'],
    ['gpt-5-chat-latest', 'openai-chat', 128_000, 'gpt-5-chat'],
    ['gpt-4.1', 'openai-chat', 1_047_576, 'gpt-4.1'],
    ['gpt-4o-mini', 'openai-chat', 128_000, 'gpt-4o'],
    ['gpt-4', 'openai-chat', 8_192, 'gpt-4'],
    ['o3', 'openai-responses', 200_000, 'o-series'],
    ['o4-mini', 'openai-responses', 200_000, 'o-series'],
    ['gemini-2.5-pro', 'gemini', 1_048_576, 'gemini'],
    ['qwen3-coder-plus', 'openai-chat', 1_000_000, 'qwen-1m'],
    ['coder-model', 'openai-chat', 1_000_000, 'qwen-1m'],
    ['qwen3-max-2026-01-23', 'openai-chat', 262_144, 'qwen'],
    ['deepseek-chat', 'openai-chat', 128_000, 'deepseek'],
    ['glm-5-turbo', 'openai-chat', 202_752, 'glm-5.0/5.1'],
    ['MiniMax-M2.1', 'anthropic', 200_000, 'minimax'],
    ['kimi-k2-0905', 'openai-chat', 262_144, 'kimi'],
  ] as const)('%s on %s: %i (%s)', (model, provider, tokens, family) => {
    const window = contextWindow(model, provider);
    expect(window).toMatchObject({ tokens, family });
    expect(window!.guessed).toBeUndefined();
    expect(window!.source.length).toBeGreaterThan(10);
  });

  it('keeps the larger variant of a model that has one, without using it', () => {
    expect(contextWindow('claude-sonnet-4-20250514', 'anthropic')).toMatchObject({ tokens: 200_000, larger: 1_000_000 });
    expect(contextWindow('claude-sonnet-4-6', 'anthropic')?.larger).toBeUndefined();
  });

  it("judges a Copilot session on Copilot's own windows", () => {
    expect(contextWindow('claude-sonnet-4.5', undefined, 'copilot')).toMatchObject({ tokens: 144_000 });
    expect(contextWindow('gpt-5.2-codex', undefined, 'copilot')).toMatchObject({ tokens: 400_000 });
    expect(contextWindow('gemini-2.5-pro', undefined, 'copilot')).toMatchObject({ tokens: 128_000 });
  });

  it("gives an unknown model the provider's default, marked guessed, and nothing without a provider", () => {
    expect(contextWindow('mystery-7b', 'anthropic')).toMatchObject({ tokens: 200_000, family: 'default', guessed: true });
    expect(contextWindow(undefined, 'gemini')).toMatchObject({ tokens: 1_048_576, guessed: true });
    expect(contextWindow(undefined, undefined, 'copilot')).toMatchObject({ tokens: 128_000, guessed: true });
    expect(contextWindow('mystery-7b', undefined)).toBeUndefined();
  });
});

describe('sizeLimits', () => {
  it("holds Anthropic's request, image and media limits, each with a source", () => {
    const limits = sizeLimits('anthropic');
    expect(limits.requestBytes).toMatchObject({ value: 32_000_000, by: 'anthropic' });
    expect(limits.image.base64Length?.value).toBe(5_242_880);
    expect(limits.image.pixels?.value).toBe(8000);
    expect(limits.image.manyImages).toMatchObject({ over: { value: 20 }, pixels: { value: 2000 } });
    expect(limits.media?.pdfPages?.value).toBe(100);
    for (const one of [limits.requestBytes, limits.image.base64Length, limits.image.pixels]) expect(one!.source).toMatch(/\w{4}/);
  });

  it('counts 100 media on a 200k-window model and 600 on larger ones', () => {
    const limits = sizeLimits('anthropic');
    expect(mediaLimit(limits, contextWindow('claude-opus-4-5', 'anthropic'))?.value).toBe(100);
    expect(mediaLimit(limits, contextWindow('claude-opus-4-6', 'anthropic'))?.value).toBe(600);
    expect(mediaLimit(sizeLimits('openai-responses'), contextWindow('gpt-5', 'openai-responses'))).toBeUndefined();
  });

  it.each([
    ['bedrock', 'requestBytes', 25_000_000],
    ['openai-responses', 'stringLength', 10_485_760],
    ['openai-chat', 'toolCallsPerMessage', 128],
    ['openai-chat', 'tools', 128],
    ['openai-responses', 'tools', 128],
  ] as const)('%s %s is %i', (provider, key, value) => {
    expect(sizeLimits(provider)[key]?.value).toBe(value);
  });

  it('marks the limits seen in one secondary source as unconfirmed', () => {
    expect(sizeLimits('gemini').requestBytes).toMatchObject({ value: 1_048_576, unconfirmed: true });
    expect(sizeLimits('anthropic').requestBytes?.unconfirmed).toBeUndefined();
  });

  it('takes the lower limit of a gateway and the provider behind it, naming whose it is', () => {
    const copilot = sizeLimits('anthropic', 'copilot');
    expect(copilot.requestBytes).toMatchObject({ value: 5_000_000, by: 'copilot' });
    expect(copilot.image.base64Length).toMatchObject({ value: 5_242_880, by: 'anthropic' });
    expect(sizeLimits('openai-chat', 'dashscope').stringLength).toMatchObject({ value: 1_048_576, by: 'openai-chat' });
    expect(sizeLimits(undefined, 'dashscope').stringLength).toMatchObject({ value: 20_000_000, by: 'dashscope' });
    expect(sizeLimits(undefined)).toEqual({ image: {} });
  });
});

describe('sizeText', () => {
  it("words each problem in the provider's own text", () => {
    const at = { message: 16, block: 2, found: 6521204, limit: 5242880, inToolResult: true, inner: 0 };
    expect(sizeText('anthropic', 'imageBytes', at)).toBe(
      'messages.16.content.2.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum: 6521204 bytes > 5242880 bytes',
    );
    expect(sizeText('anthropic', 'context', { message: 0, block: 0, found: 215366, limit: 200000 })).toBe('prompt is too long: 215366 tokens > 200000 maximum');
    expect(sizeText('openai-chat', 'context', { message: 0, block: 0, found: 130532, limit: 128000 })).toBe(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
    );
    expect(sizeText('gemini', 'context', { message: 0, block: 0, found: 1200293, limit: 1048576 })).toBe(
      'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
    );
    expect(sizeText('copilot', 'requestBytes', { message: 0, block: 0, found: 9_100_000, limit: 5_000_000, withMedia: true })).toBe(
      'The attached image or document is too large to send natively through CAPI Responses. Try a smaller attachment or fewer attachments. (9.1 MB request; 5.0 MB limit)',
    );
    expect(sizeText('anthropic', 'media', { message: 0, block: 0, found: 102, limit: 100, images: 102, pages: 0 })).toBe('Too much media: 0 document pages + 102 images > 100');
    expect(sizeText('mistral', 'imageBytes', at)).toBeUndefined();
    expect(sizeText(undefined, 'context', at)).toBeUndefined();
  });
});
