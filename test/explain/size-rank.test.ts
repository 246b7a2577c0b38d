import { describe, expect, it } from 'vitest';
import { recognise } from '../../src/explain/recognise.js';
import { scoreSize, type SizeFacts } from '../../src/explain/size-rank.js';
import type { MeasuredMedia, RequestSize, SizeKind } from '../../src/model/size/request-size.js';
import { contextWindow, sizeLimits } from '../../src/providers/size/index.js';
import { SIZE_SAMPLES } from './size-samples.js';

// Measured requests built by hand, so each test says which figure decides; the sessions behind
// them are measured for real in find-size-session.test.ts.

const KINDS: SizeKind[] = ['text', 'thinking', 'toolCall', 'toolResult', 'image', 'document', 'other'];

function request(tokens: number, more: Partial<RequestSize> = {}, anchored = false): RequestSize {
  return {
    model: 'claude-sonnet-4-5',
    tokens: { tokens, high: Math.round(tokens * 1.35), framing: 0, estimator: 'test', ...(anchored ? { anchor: { entry: 3, tokens: Math.round(tokens * 0.9) } } : {}) },
    bytes: tokens * 4,
    messages: 10,
    media: [],
    mediaCount: 0,
    breakdown: { byKind: Object.fromEntries(KINDS.map((kind) => [kind, { bytes: 0, tokens: 0, count: 0 }])) as RequestSize['breakdown']['byKind'], byTool: [], largest: [] },
    ...more,
  };
}

function image(messageIndex: number, blockIndex: number, base64Length: number, more: Partial<MeasuredMedia> = {}): MeasuredMedia {
  return { entry: 7, pointer: '/message/content/0', messageIndex, blockIndex, kind: 'image', mediaType: 'image/png', base64Length, bytes: Math.floor((base64Length * 3) / 4), inToolResult: false, ...more };
}

function facts(size: RequestSize, provider: 'anthropic' | 'openai-chat' | 'gemini' = 'anthropic', model = size.model): SizeFacts {
  return { size, judge: { window: contextWindow(model, provider), limits: sizeLimits(provider) } };
}

const sample = (ref: string) => recognise(SIZE_SAMPLES[ref]!.text);

describe('scoreSize: tokens', () => {
  const error = recognise('prompt is too long: 215366 tokens > 200000 maximum');

  it('a session whose estimate brackets the count outranks one a third smaller, and one ten times smaller cannot explain it', () => {
    const near = scoreSize(error, facts(request(165_000)))!;
    const smaller = scoreSize(error, facts(request(95_000)))!;
    expect(near.score).toBeGreaterThan(smaller.score);
    expect(near.evidence).toContain('the provider counted 215366');
    expect(scoreSize(error, facts(request(21_000)))).toBeUndefined();
    expect(scoreSize(error, facts(request(900_000)))).toBeUndefined();
  });

  it('the session whose model has the quoted window wins over one of the same size with another', () => {
    const claude = scoreSize(error, facts(request(165_000)))!;
    const gemini = scoreSize(error, facts(request(165_000, { model: 'gemini-2.5-pro' }), 'gemini'))!;
    expect(claude.score).toBeGreaterThan(gemini.score);
  });

  it('with a recorded usage the file already counts what it lacks, so a far smaller estimate cannot explain the count', () => {
    expect(scoreSize(error, facts(request(60_000)))).toBeDefined();
    expect(scoreSize(error, facts(request(60_000, {}, true)))).toBeUndefined();
  });

  it('among sessions in range, the nearest estimate wins', () => {
    expect(scoreSize(error, facts(request(160_000)))!.score).toBeGreaterThan(scoreSize(error, facts(request(140_000)))!.score);
  });

  it('without figures: sessions near or over their window, the fuller first; a small one is not it', () => {
    const bare = sample('anth-prompt-too-long-bare');
    const over = scoreSize(bare, facts(request(190_000)))!;
    const near = scoreSize(bare, facts(request(110_000)))!;
    expect(over.score).toBeGreaterThan(near.score);
    expect(scoreSize(bare, facts(request(40_000)))).toBeUndefined();
  });

  it('OpenAI Chat and Gemini counts rank the same way', () => {
    const chat = recognise("This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.");
    expect(scoreSize(chat, facts(request(100_000, { model: 'gpt-4o' }), 'openai-chat'))!.score).toBeGreaterThan(scoreSize(chat, facts(request(60_000, { model: 'gpt-4o' }), 'openai-chat'))?.score ?? 0);
    const gemini = sample('gem-input-token-count');
    expect(scoreSize(gemini, facts(request(900_000, { model: 'gemini-2.5-pro' }), 'gemini'))).toBeDefined();
    expect(scoreSize(gemini, facts(request(200_000, { model: 'gemini-2.5-pro' }), 'gemini'))).toBeUndefined();
  });
});

describe('scoreSize: images', () => {
  const error = sample('anth-image-bytes'); // messages.16.content.2.tool_result.content.0 … 6521204 bytes

  it('the image of exactly the quoted base64 length, where the error says, beats any other large image', () => {
    const exact = scoreSize(error, facts(request(50_000, { media: [image(16, 2, 6_521_204, { inToolResult: true, entry: 31, pointer: '/message/content/0/content/0' })] })))!;
    const elsewhere = scoreSize(error, facts(request(50_000, { media: [image(16, 2, 6_521_204)] })))!;
    const otherLarge = scoreSize(error, facts(request(50_000, { media: [image(3, 1, 7_000_000)] })))!;
    expect(exact).toMatchObject({ entry: 31, pointer: '/message/content/0/content/0' });
    expect(exact.evidence).toContain('(in a tool result)');
    expect(exact.score).toBeGreaterThan(elsewhere.score);
    expect(elsewhere.score).toBeGreaterThan(otherLarge.score);
    expect(scoreSize(error, facts(request(50_000, { media: [image(16, 2, 1_000_000)] })))).toBeUndefined();
  });

  it("Claude Code's megabytes match to a tenth, read as 2^20 or as 10^6 bytes", () => {
    const cc = sample('cc-image-base64-size'); // 8.4 MB
    const over = scoreSize(cc, facts(request(1000, { media: [image(2, 0, 6_000_000)] })))!.score;
    expect(scoreSize(cc, facts(request(1000, { media: [image(2, 0, 8_800_000)] })))!.score).toBeGreaterThan(over);
    expect(scoreSize(cc, facts(request(1000, { media: [image(2, 0, 8_420_000)] })))!.score).toBeGreaterThan(over);
    expect(scoreSize(cc, facts(request(1000, { media: [image(2, 0, 8_600_000)] })))!.score).toBe(over);
  });

  it('pixels: an image over the limit; the many-image limit counts only past 20 images', () => {
    const big = sample('anth-image-pixels'); // 8000
    expect(scoreSize(big, facts(request(1000, { media: [image(7, 2, 10_000, { width: 9000, height: 300 })] })))).toMatchObject({ entry: 7 });
    expect(scoreSize(big, facts(request(1000, { media: [image(7, 2, 10_000, { width: 4000, height: 300 })] })))).toBeUndefined();
    const many = sample('anth-image-pixels-many'); // messages.8.content.0, 2000
    const wide = image(8, 0, 10_000, { width: 2400, height: 1200 });
    const small = image(1, 0, 10_000, { width: 800, height: 600 });
    const crowded = scoreSize(many, facts(request(1000, { media: [wide, ...Array.from({ length: 21 }, () => small)] })))!;
    const sparse = scoreSize(many, facts(request(1000, { media: [wide, small] })))!;
    expect(crowded.score).toBeGreaterThan(sparse.score);
  });

  it('media count: the exact count wins, then any count over the limit', () => {
    const error = sample('anth-too-much-media'); // 0 + 102 > 100
    expect(scoreSize(error, facts(request(1000, { mediaCount: 102 })))!.score).toBeGreaterThan(scoreSize(error, facts(request(1000, { mediaCount: 140 })))!.score);
    expect(scoreSize(error, facts(request(1000, { mediaCount: 40 })))).toBeUndefined();
  });

  it('PDF pages: a document with more pages than the limit', () => {
    const error = sample('anth-pdf-pages');
    const pdf = (pages: number) => ({ ...image(38, 0, 100_000), kind: 'document' as const, pages });
    expect(scoreSize(error, facts(request(1000, { media: [pdf(240)] })))!.score).toBeGreaterThan(0);
    expect(scoreSize(error, facts(request(1000, { media: [pdf(30)] })))).toBeUndefined();
  });
});

describe('scoreSize: bytes, strings and calls', () => {
  it('a request body near the quoted size; none far from it', () => {
    const error = sample('gem-body-size'); // 1056562
    expect(scoreSize(error, facts(request(264_000), 'gemini'))).toBeDefined();
    expect(scoreSize(error, facts(request(30_000), 'gemini'))).toBeUndefined();
  });

  it("Anthropic's 413 names no figure: sessions near the 32 MB, fuller first", () => {
    const error = sample('anth-request-too-large');
    const full = scoreSize(error, facts(request(1000, { bytes: 34_000_000 })))!;
    const near = scoreSize(error, facts(request(1000, { bytes: 25_000_000 })))!;
    expect(full.score).toBeGreaterThan(near.score);
    expect(scoreSize(error, facts(request(1000, { bytes: 2_000_000 })))).toBeUndefined();
  });

  it('a string of exactly the quoted length, with its entry and pointer', () => {
    const error = sample('resp-string-too-long'); // 62114761
    const exact = scoreSize(error, facts(request(1000, { longestString: { entry: 12, pointer: '/payload/output', length: 62_114_761 } })))!;
    expect(exact).toMatchObject({ entry: 12, pointer: '/payload/output' });
    const over = scoreSize(error, facts(request(1000, { longestString: { entry: 4, pointer: '/payload/output', length: 20_000_000 } })))!;
    expect(exact.score).toBeGreaterThan(over.score);
    expect(scoreSize(error, facts(request(1000, { longestString: { entry: 4, pointer: '', length: 9_000 } })))).toBeUndefined();
  });

  it('tool calls: the exact count in the message named (OpenAI Chat counts the system prompt)', () => {
    const error = sample('oai-chat-tool-calls-too-many'); // messages[21], 131
    const same = scoreSize(error, facts(request(1000, { mostToolCalls: { entry: 40, messageIndex: 20, count: 131 } }), 'openai-chat'))!;
    const other = scoreSize(error, facts(request(1000, { mostToolCalls: { entry: 40, messageIndex: 5, count: 131 } }), 'openai-chat'))!;
    expect(same.score).toBeGreaterThan(other.score);
    expect(scoreSize(error, facts(request(1000, { mostToolCalls: { entry: 40, messageIndex: 20, count: 12 } }), 'openai-chat'))).toBeUndefined();
  });

  it('a text no rule checks is matched to no session', () => {
    expect(scoreSize(sample('oai-tools-too-many'), facts(request(1000)))).toBeUndefined();
  });
});

describe('scoreSize: which of several sessions a bare token count names', () => {
  type Provider = 'anthropic' | 'openai-chat' | 'gemini';
  interface Candidate {
    name: string;
    tokens: number;
    high: number;
    /** Tokens of the last usage the session recorded, when it has one. */
    anchor?: number;
    model: string;
    provider?: Provider;
    /** Place among the newest sessions, 0 the newest. */
    age?: number;
  }
  const candidate = (c: Candidate): SizeFacts => ({
    ...facts(request(c.tokens, { model: c.model, tokens: { tokens: c.tokens, high: c.high, framing: 0, estimator: 'test', ...(c.anchor === undefined ? {} : { anchor: { entry: 3, tokens: c.anchor } }) } }), c.provider ?? 'anthropic', c.model),
    ...(c.age === undefined ? {} : { age: c.age }),
  });
  const ANTHROPIC = 'prompt is too long: 215366 tokens > 200000 maximum';
  const OPENAI = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.";
  const GEMINI = 'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).';
  // Each row: the error, the sessions measured, and the one it must name first.
  const table: Array<{ why: string; error: string; candidates: Candidate[]; first: string }> = [
    {
      why: 'a tightly estimated session (recorded usage) near the count beats a loosely estimated one whose middle is nearer',
      error: ANTHROPIC,
      candidates: [
        { name: 'anchored', tokens: 212_000, high: 213_000, anchor: 200_000, model: 'claude-sonnet-4-5' },
        { name: 'loose', tokens: 170_000, high: 260_000, model: 'claude-sonnet-4-5' },
      ],
      first: 'anchored',
    },
    {
      why: "Anthropic's words come from a session on a Claude model, even when an OpenAI session of the same size and window is newer",
      error: ANTHROPIC,
      candidates: [
        { name: 'o3', tokens: 190_000, high: 205_000, model: 'o3', provider: 'openai-chat', age: 0 },
        { name: 'claude', tokens: 190_000, high: 205_000, model: 'claude-sonnet-4-5', age: 1 },
      ],
      first: 'claude',
    },
    {
      why: "Gemini's words name the Gemini session over a Claude one as near",
      error: GEMINI,
      candidates: [
        { name: 'claude', tokens: 1_000_000, high: 1_080_000, model: 'claude-sonnet-4-6', age: 0 },
        { name: 'gemini', tokens: 1_000_000, high: 1_080_000, model: 'gemini-2.5-pro', provider: 'gemini', age: 3 },
      ],
      first: 'gemini',
    },
    {
      why: "the session whose window is the one quoted beats one as near whose model's window is another",
      error: OPENAI,
      candidates: [
        { name: 'gpt-4.1', tokens: 125_000, high: 128_000, model: 'gpt-4.1', provider: 'openai-chat' },
        { name: 'gpt-4o', tokens: 125_000, high: 128_000, model: 'gpt-4o', provider: 'openai-chat' },
      ],
      first: 'gpt-4o',
    },
    {
      why: 'between two sessions alike in every figure, the newer',
      error: ANTHROPIC,
      candidates: [
        { name: 'older', tokens: 200_000, high: 210_000, anchor: 190_000, model: 'claude-sonnet-4-5', age: 30 },
        { name: 'newer', tokens: 200_000, high: 210_000, anchor: 190_000, model: 'claude-sonnet-4-5', age: 2 },
      ],
      first: 'newer',
    },
    {
      why: 'recency decides between near equals only: a much nearer older session still wins',
      error: ANTHROPIC,
      candidates: [
        { name: 'newest', tokens: 150_000, high: 152_000, anchor: 140_000, model: 'claude-sonnet-4-5', age: 0 },
        { name: 'older', tokens: 214_000, high: 215_000, anchor: 205_000, model: 'claude-sonnet-4-5', age: 60 },
      ],
      first: 'older',
    },
  ];

  it.each(table)('$why', ({ error, candidates, first }) => {
    const recognised = recognise(error);
    const scored = candidates.map((c) => ({ name: c.name, score: scoreSize(recognised, candidate(c))?.score ?? -1 }));
    const best = Math.max(...scored.map((s) => s.score));
    expect(scored.filter((s) => s.score === best).map((s) => s.name)).toEqual([first]);
  });
});
