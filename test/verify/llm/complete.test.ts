import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { complete, LlmError } from '../../../src/verify/llm/complete.js';
import type { CallOptions, ModelSpec } from '../../../src/verify/llm/types.js';
import { startFakeProvider, type FakeProvider, type Reply } from './fake-provider.js';

const KEY = 'sk-ant-api03-test-KEY-0123456789abcdefghij';
const SYSTEM = 'You are a strict judge. Answer PASS or FAIL.';
const USER = 'Transcript excerpt: the tool returned 42.';

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function serve(...replies: Reply[]): Promise<FakeProvider> {
  provider = await startFakeProvider(replies);
  return provider;
}

function anthropic(url: string, apiKey = KEY): ModelSpec {
  return { provider: 'anthropic', model: 'claude-sonnet-4-5', protocol: 'anthropic', baseUrl: url, apiKey };
}

function openai(url: string, apiKey = 'sk-proj-test0123456789abcdefghijkl'): ModelSpec {
  return { provider: 'openai', model: 'gpt-4.1', protocol: 'openai', baseUrl: `${url}/v1`, apiKey };
}

/** Records every backoff instead of waiting it out. */
function options(extra: Partial<CallOptions> = {}): CallOptions & { slept: number[] } {
  const slept: number[] = [];
  return { timeoutMs: 5_000, maxRetries: 2, sleep: async (ms) => void slept.push(ms), slept, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('complete: Anthropic Messages', () => {
  it('posts to /v1/messages with the key, version and system prompt at the top level', async () => {
    const server = await serve({ text: 'PASS' });
    const result = await complete(anthropic(server.url), SYSTEM, USER, options());
    expect(result.text).toBe('PASS');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request?.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 1024, temperature: 0, system: SYSTEM, messages: [{ role: 'user', content: USER }] });
  });

  it('joins the text blocks and skips the others', async () => {
    const server = await serve({
      status: 200,
      json: { content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'VERDICT: ' }, { type: 'text', text: 'FAIL' }], stop_reason: 'end_turn' },
    });
    expect((await complete(anthropic(server.url), SYSTEM, USER, options())).text).toBe('VERDICT: FAIL');
  });
});

describe('complete: OpenAI Chat Completions', () => {
  it('posts to {baseUrl}/chat/completions with a Bearer key and the system prompt as the first message', async () => {
    const server = await serve({ text: 'FAIL' });
    const model = openai(server.url);
    const result = await complete(model, SYSTEM, USER, options());
    expect(result.text).toBe('FAIL');
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBe(`Bearer ${model.apiKey}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'gpt-4.1',
      temperature: 0,
      max_tokens: 1024,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: USER },
      ],
    });
  });

  it('sends no Authorization header to a keyless server', async () => {
    const server = await serve({ text: 'PASS' });
    await complete(openai(server.url, ''), SYSTEM, USER, options());
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('complete: retries', () => {
  it('retries a 500 and succeeds, after a jittered backoff of at most 500 ms', async () => {
    const server = await serve({ status: 500, json: { error: { message: 'overloaded' } } }, { text: 'PASS' });
    const call = options();
    expect((await complete(anthropic(server.url), SYSTEM, USER, call)).text).toBe('PASS');
    expect(server.requests).toHaveLength(2);
    expect(call.slept).toHaveLength(1);
    expect(call.slept[0]).toBeGreaterThanOrEqual(250);
    expect(call.slept[0]).toBeLessThanOrEqual(500);
  });

  it('doubles the backoff per attempt', async () => {
    const server = await serve({ status: 503 }, { status: 502 }, { status: 500 }, { text: 'PASS' });
    const call = options({ maxRetries: 3 });
    await complete(openai(server.url), SYSTEM, USER, call);
    expect(call.slept).toHaveLength(3);
    expect(call.slept[1]).toBeGreaterThanOrEqual(500);
    expect(call.slept[1]).toBeLessThanOrEqual(1000);
    expect(call.slept[2]).toBeGreaterThanOrEqual(1000);
    expect(call.slept[2]).toBeLessThanOrEqual(2000);
  });

  it('waits as long as Retry-After (seconds) says on a 429', async () => {
    const server = await serve({ status: 429, headers: { 'retry-after': '1' }, json: { error: { type: 'rate_limit_error', message: 'slow down' } } }, { text: 'PASS' });
    const call = options();
    expect((await complete(anthropic(server.url), SYSTEM, USER, call)).text).toBe('PASS');
    expect(call.slept).toEqual([1000]);
  });

  it('understands Retry-After as an HTTP date and caps it at 30 s', async () => {
    const soon = new Date(Date.now() + 3_000).toUTCString();
    const late = new Date(Date.now() + 3_600_000).toUTCString();
    const server = await serve({ status: 429, headers: { 'retry-after': soon } }, { status: 503, headers: { 'retry-after': late } }, { text: 'PASS' });
    const call = options();
    await complete(openai(server.url), SYSTEM, USER, call);
    // HTTP dates have whole seconds, so "3 s from now" lands anywhere in (2 s, 3 s].
    expect(call.slept[0]).toBeGreaterThan(1_000);
    expect(call.slept[0]).toBeLessThanOrEqual(3_000);
    expect(call.slept[1]).toBe(30_000);
  });

  it('gives up after maxRetries extra attempts with the last error', async () => {
    const server = await serve({ status: 500 }, { status: 500 }, { status: 503, json: { error: { message: 'still down' } } });
    const error = await failure(complete(anthropic(server.url), SYSTEM, USER, options({ maxRetries: 2 })));
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ kind: 'http', status: 503 });
    expect(error.message).toBe('anthropic/claude-sonnet-4-5: HTTP 503: still down (after 3 attempts)');
  });

  it('does not retry a 400 and names the provider complaint', async () => {
    const server = await serve({ status: 400, json: { error: { type: 'invalid_request_error', message: 'model: claude-nope not found' } } }, { text: 'PASS' });
    const call = options();
    const error = await failure(complete(anthropic(server.url), SYSTEM, USER, call));
    expect(error).toMatchObject({ kind: 'http', status: 400, name: 'LlmError' });
    expect(error.message).toBe('anthropic/claude-sonnet-4-5: HTTP 400: model: claude-nope not found');
    expect(server.requests).toHaveLength(1);
    expect(call.slept).toEqual([]);
  });
});

describe('complete: failures', () => {
  it('times out a server that never answers, per attempt, and retries it', async () => {
    const server = await serve({ hang: true }, { hang: true });
    const error = await failure(complete(openai(server.url), SYSTEM, USER, options({ timeoutMs: 200, maxRetries: 1 })));
    expect(error.kind).toBe('timeout');
    expect(error.status).toBeUndefined();
    expect(error.message).toBe('openai/gpt-4.1: no reply within 200 ms (after 2 attempts)');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a reply that is not JSON as malformed, without retrying', async () => {
    const server = await serve({ status: 200, raw: '{"content": [' });
    const error = await failure(complete(anthropic(server.url), SYSTEM, USER, options()));
    expect(error.kind).toBe('malformed');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['anthropic without content', 'anthropic', { type: 'message' }],
    ['anthropic refusal with no text', 'anthropic', { content: [], stop_reason: 'refusal' }],
    ['openai without choices', 'openai', { object: 'chat.completion' }],
    ['openai null content', 'openai', { choices: [{ message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }] }],
  ])('reports %s as malformed', async (_, protocol, json) => {
    const server = await serve({ status: 200, json });
    const model = protocol === 'anthropic' ? anthropic(server.url) : openai(server.url);
    expect((await failure(complete(model, SYSTEM, USER, options()))).kind).toBe('malformed');
  });

  it('reports a refused connection as a network error after retrying', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const call = options({ maxRetries: 1 });
    const error = await failure(complete(anthropic(`http://127.0.0.1:${port}`), SYSTEM, USER, call));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(`anthropic/claude-sonnet-4-5: cannot reach http://127.0.0.1:${port} (ECONNREFUSED) (after 2 attempts)`);
    expect(call.slept).toHaveLength(1);
  });

  it('never puts the key or the prompt in the error, even when the provider echoes the key', async () => {
    const oddKey = 'local-key-without-a-known-shape-31337';
    const server = await serve(
      { status: 401, json: { error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } } },
      { status: 401, json: { error: { message: `Incorrect API key provided: ${oddKey}.` } } },
    );
    const first = await failure(complete(anthropic(server.url), SYSTEM, USER, options()));
    const second = await failure(complete(openai(server.url, oddKey), SYSTEM, USER, options()));
    for (const error of [first, second]) {
      expect(error.status).toBe(401);
      expect(error.message).not.toContain(KEY);
      expect(error.message).not.toContain(oddKey);
      expect(error.message).not.toContain(USER);
      expect(error.message).not.toContain(SYSTEM);
      expect(error.stack).not.toContain(KEY);
    }
    expect(second.message).toBe('openai/gpt-4.1: HTTP 401: Incorrect API key provided: [redacted api key].');
  });

  it('a short key is looked for in the provider’s words only, never in the model’s name', async () => {
    const server = await serve({ status: 401, json: { error: { message: 'Incorrect API key provided: g.' } } });
    const error = await failure(complete(openai(server.url, 'g'), SYSTEM, USER, options()));
    expect(error.message).toBe('openai/gpt-4.1: HTTP 401: Incorrect API key provided: [redacted api key].');
  });

  it('rethrows the caller’s abort instead of retrying', async () => {
    const server = await serve({ hang: true }, { text: 'PASS' });
    const controller = new AbortController();
    const call = complete(anthropic(server.url), SYSTEM, USER, options({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 100);
    await expect(call).rejects.toThrow('user pressed Ctrl-C');
    expect(server.requests).toHaveLength(1);
  });
});
