import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/model/analysis.js';
import { ESTIMATORS, estimatorFor, imageTokens, textTokens } from '../../../src/model/size/estimate.js';
import { measureRequest } from '../../../src/model/size/measure.js';
import { loadTranscript } from '../../../src/pipeline/load-transcript.js';
import { call, Session, text } from '../../helpers/session.js';
import { jpegBase64, pngBase64 } from './images.js';
import { assistant as codexAssistant, call as codexCall, jsonl as codexJsonl, line as codexLine, meta, output as codexOutput, resetClock, turnContext, user as codexUser } from '../../formats/codex/rollout.js';

async function measured(jsonl: string) {
  return measureRequest(analyze(await loadTranscript(Readable.from([Buffer.from(jsonl)]))));
}

const usage = (input: number, cacheRead = 0, cacheWrite = 0) => ({ message: { usage: { input, output: 50, cacheRead, cacheWrite, totalTokens: input + 50 } } });

describe('measureRequest on a pi session', () => {
  it('adds up each kind along the replayed path and names the tool each result answers', async () => {
    const session = new Session()
      .user('u'.repeat(1000))
      .assistant([{ type: 'thinking', thinking: 't'.repeat(300), thinkingSignature: 'sig' }, text('a'.repeat(200)), call('c1', 'read', { path: 'src/big.ts' })], 'toolUse')
      .result('c1', 'read', { message: { content: [text('r'.repeat(5000))] } })
      .reply('done');
    const size = await measured(session.jsonl());
    const kinds = size.breakdown.byKind;
    expect(kinds.text.bytes).toBe(1000 + 200 + 'done'.length + 'Let me look.'.length * 0);
    expect(kinds.thinking.bytes).toBe(300);
    expect(kinds.toolResult.bytes).toBe(5000);
    expect(kinds.toolCall.bytes).toBe('read'.length + JSON.stringify({ path: 'src/big.ts' }).length);
    expect(size.messages).toBe(4);
    expect(size.breakdown.byTool.map((share) => share.tool)).toEqual(['read']);
    expect(size.breakdown.largest[0]).toMatchObject({ kind: 'toolResult', bytes: 5000, tool: 'read', line: 4 });
    expect(size.model).toBe('claude-sonnet-4-5');
  });

  it('anchors on the last usage recorded and estimates only the response that recorded it and what follows', async () => {
    const session = new Session()
      .user('hello')
      .assistant([text('x'.repeat(100))], 'stop', usage(7000, 2000, 1000))
      .user('y'.repeat(3000));
    const size = await measured(session.jsonl());
    const claude = ESTIMATORS.claude!;
    const after = textTokens('text', 100, claude) + textTokens('text', 3000, claude) + 2 * claude.perMessage;
    expect(size.tokens.anchor).toEqual({ entry: 2, tokens: 10_000 });
    expect(size.tokens.estimator).toBe(claude.name);
    expect(size.tokens.tokens).toBe(10_000 + after);
    expect(size.tokens.high).toBe(Math.ceil(10_000 + after * (1 + claude.margin)));
  });

  it('takes no anchor from before the latest compaction: that usage counted history no longer sent', async () => {
    const session = new Session()
      .user('old '.repeat(500), { id: 'u1' })
      .assistant([text('old answer')], 'stop', usage(90_000))
      .user('kept', { id: 'k1' })
      .entry({ type: 'compaction', summary: 's'.repeat(400), firstKeptEntryId: 'k1', tokensBefore: 90_000 })
      .user('new question');
    const size = await measured(session.jsonl());
    expect(size.tokens.anchor).toBeUndefined();
    expect(size.tokens.tokens).toBeLessThan(1000);
    expect(size.breakdown.byKind.text.bytes).toBe(400 + 'kept'.length + 'new question'.length);
  });

  it('measures images by base64 length and pixels read from their headers, in user turns and tool results', async () => {
    const png = pngBase64(2400, 1200);
    const jpeg = jpegBase64(640, 480, 4000);
    const session = new Session()
      .user([text('look'), { type: 'image', data: png, mimeType: 'image/png' }])
      .calls(call('c1', 'screenshot', {}))
      .result('c1', 'screenshot', { message: { content: [{ type: 'image', data: jpeg, mimeType: 'image/jpeg' }] } });
    const size = await measured(session.jsonl());
    expect(size.media).toEqual([
      expect.objectContaining({ kind: 'image', width: 2400, height: 1200, base64Length: png.length, messageIndex: 0, blockIndex: 1, inToolResult: false, mediaType: 'image/png' }),
      expect.objectContaining({ kind: 'image', width: 640, height: 480, base64Length: jpeg.length, messageIndex: 2, blockIndex: 0, inToolResult: true }),
    ]);
    expect(size.mediaCount).toBe(2);
    expect(size.breakdown.byKind.image.bytes).toBe(png.length + jpeg.length);
    expect(size.breakdown.byKind.image.tokens).toBe(imageTokens(2400, 1200) + imageTokens(640, 480));
  });

  it('leaves out what the agent does not send: failed turns and abandoned branches', async () => {
    const session = new Session()
      .user('q', { id: 'root' })
      .assistant([text('z'.repeat(9000))], 'error')
      .user('w'.repeat(50_000), { parent: 'root', id: 'side' })
      .user('again', { parent: 'root' });
    const size = await measured(session.jsonl());
    expect(size.breakdown.byKind.text.bytes).toBe(1 + 'again'.length);
  });
});

describe('the estimator', () => {
  it.each([
    ['claude-opus-4-5', undefined, 'claude'],
    ['anthropic/claude-sonnet-4.5', undefined, 'claude'],
    ['gpt-5.2-codex', undefined, 'openai'],
    ['o3-mini', undefined, 'openai'],
    ['MiniMax-M2.1', undefined, 'other'],
    [undefined, 'codex', 'openai'],
    [undefined, 'claude-code', 'claude'],
    [undefined, 'pi', 'other'],
  ])('for model %s of a %s session is the %s one', (model, format, family) => {
    expect(estimatorFor(model, format)).toBe(ESTIMATORS[family]);
  });

  it('counts an image by its pixels, scaled as Anthropic scales it, and a full-size one when they are unknown', () => {
    expect(imageTokens(750, 100)).toBe(100);
    expect(imageTokens(3136, 1568)).toBe(imageTokens(1568, 784));
    expect(imageTokens(undefined, undefined)).toBeGreaterThanOrEqual(imageTokens(1072, 1072));
    expect(imageTokens(undefined, undefined)).toBeGreaterThanOrEqual(imageTokens(8000, 8000));
  });
});

describe('measureRequest on a Codex rollout', () => {
  it("adds the request body's JSON framing to the high bound for every message sent, the anchored ones too", async () => {
    resetClock();
    const counted = codexLine('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: 10_000, total_tokens: 10_000 } } });
    const rollout = [meta(), turnContext(), codexUser('run it'), codexCall('function', 'call_1'), codexOutput('function', 'call_1'), codexAssistant('done'), counted, codexUser('y'.repeat(4000))];
    const analysis = analyze(await loadTranscript(Readable.from([Buffer.from(codexJsonl(rollout))])));
    const size = measureRequest(analysis);
    const openai = ESTIMATORS.openai!;
    const unframed = measureRequest(analysis, { ...openai, framing: 0 });
    expect(size.tokens.anchor?.tokens).toBe(10_000);
    expect(size.messages).toBe(5);
    expect(openai.framing).toBeGreaterThan(0);
    expect(size.tokens.framing).toBe(5 * openai.framing);
    expect(size.tokens.high).toBe(unframed.tokens.high + size.tokens.framing);
    // The best estimate is the provider's count, which holds none of it.
    expect(size.tokens.tokens).toBe(unframed.tokens.tokens);
  });

  it('adds none for the families whose body framing is not measured', async () => {
    const size = await measured(new Session().user('hello').reply('hi').jsonl());
    expect(size.tokens.framing).toBe(0);
    expect(ESTIMATORS.claude!.framing).toBe(0);
  });
});

describe('measureRequest on a Claude Code session', () => {
  const line = (fields: Record<string, unknown>) => JSON.stringify({ sessionId: 's', cwd: '/w', version: '2.1.0', timestamp: '2026-03-01T00:00:00Z', ...fields });
  it('counts tool results inside user lines, calls and thinking by kind, and anchors on message usage', async () => {
    const lines = [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'fix it' } }),
      line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'thinking', thinking: 'h'.repeat(120), signature: 'sig' }], stop_reason: null, usage: { input_tokens: 10, cache_creation_input_tokens: 3000, cache_read_input_tokens: 20_000, output_tokens: 5 } } }),
      line({ type: 'assistant', uuid: 'a2', parentUuid: 'a1', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, cache_creation_input_tokens: 3000, cache_read_input_tokens: 20_000, output_tokens: 5 } } }),
      line({ type: 'user', uuid: 'u2', parentUuid: 'a2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'o'.repeat(2000) }] } }),
    ];
    const size = await measured(lines.join('\n') + '\n');
    expect(size.breakdown.byKind.thinking.bytes).toBe(120);
    expect(size.breakdown.byKind.signature).toEqual({ bytes: 3, tokens: 0, count: 1 });
    expect(size.breakdown.byKind.toolResult.bytes).toBe(2000);
    expect(size.breakdown.byTool[0]).toMatchObject({ tool: 'Bash' });
    expect(size.tokens.anchor).toEqual({ entry: 2, tokens: 23_010 });
    // The response's two lines are one message the usage did not count: both are estimated, and framed once.
    const claude = ESTIMATORS.claude!;
    const after = textTokens('thinking', 120, claude) + textTokens('toolCall', 'Bash'.length + '{"command":"ls"}'.length, claude) + textTokens('toolResult', 2000, claude) + 2 * claude.perMessage;
    expect(size.tokens.tokens).toBe(23_010 + after);
    expect(size.model).toBe('claude-opus-4-5');
    expect(size.messages).toBe(3);
  });
});

describe('thinking signatures', () => {
  // Opaque and large (a redacted or encrypted reasoning item runs to hundreds of kilobytes): the body carries them, the token count does not.
  const signature = 'S'.repeat(400_000);
  const cc = (signed: string | undefined) =>
    [
      JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'go' } }),
      JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'thinking', thinking: 'why', ...(signed === undefined ? {} : { signature: signed }) }, { type: 'text', text: 'done' }], stop_reason: 'end_turn' } }),
    ].join('\n') + '\n';
  const pi = (signed: string | undefined) => new Session().user('go').assistant([{ type: 'thinking', thinking: 'why', ...(signed === undefined ? {} : { thinkingSignature: signed }) }, text('done')], 'stop').jsonl();

  it.each([
    ['Claude Code (signature)', cc],
    ['pi (thinkingSignature)', pi],
  ])('%s: counted in the request bytes, not in its tokens', async (_name, session) => {
    const [signed, bare] = [await measured(session(signature)), await measured(session(undefined))];
    expect(signed.bytes - bare.bytes).toBe(signature.length);
    expect(signed.breakdown.byKind.signature).toEqual({ bytes: signature.length, tokens: 0, count: 1 });
    expect(signed.tokens.tokens).toBe(bare.tokens.tokens);
    expect(signed.breakdown.byKind.thinking.bytes).toBe('why'.length);
  });
});

describe('measureRequest on a Gemini CLI session', () => {
  const record = (fields: Record<string, unknown>) => JSON.stringify({ timestamp: '2026-11-26T06:20:26.718Z', ...fields });
  it('measures the history the client replays (the last copy of each message), anchored on the tokens it recorded', async () => {
    const lines = [
      JSON.stringify({ sessionId: 'g1', projectHash: 'h', startTime: '2026-11-26T06:20:26.698Z', lastUpdated: '2026-11-26T06:20:26.698Z', kind: 'main' }),
      record({ id: 'u1', type: 'user', content: [{ text: 'q'.repeat(40) }] }),
      record({ id: 'm1', type: 'gemini', content: '', thoughts: [], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' }, status: 'executing' }], tokens: { input: 9000, output: 20, cached: 0, thoughts: 0, tool: 0, total: 9020 }, model: 'gemini-2.5-pro' }),
      record({ id: 'm1', type: 'gemini', content: '', thoughts: [], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' }, status: 'success', result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'o'.repeat(3000) } } }] }], tokens: { input: 9000, output: 20, cached: 0, thoughts: 0, tool: 0, total: 9020 }, model: 'gemini-2.5-pro' }),
    ];
    const size = await measured(lines.join('\n') + '\n');
    expect(size.breakdown.byKind.text.bytes).toBe(40);
    expect(size.breakdown.byKind.toolResult.bytes).toBeGreaterThan(3000);
    expect(size.breakdown.byKind.toolCall.bytes).toBe('read_file'.length + '{"path":"a.txt"}'.length);
    expect(size.tokens.anchor).toEqual({ entry: 3, tokens: 9000 });
    expect(size.model).toBe('gemini-2.5-pro');
    expect(size.messages).toBe(2);
  });
});
