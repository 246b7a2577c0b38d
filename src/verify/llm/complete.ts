import { setTimeout as delay } from 'node:timers/promises';
import { maskSecrets } from './secrets.js';
import type { CallOptions, Completion, ModelSpec } from './types.js';
import { maskUrlCredentials } from './url-credentials.js';

const MAX_TOKENS = 1024;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
const RETRY_AFTER_CAP_MS = 30_000;
const PROVIDER_MESSAGE_CHARS = 200;

export type LlmErrorKind = 'timeout' | 'http' | 'network' | 'malformed';

/** The verifier model could not be reached or answered unusably. The message never holds the API key or the prompt. */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    message: string,
    readonly kind: LlmErrorKind,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface Failure {
  kind: LlmErrorKind;
  detail: string;
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
}

interface Request {
  url: string;
  headers: Record<string, string>;
  body: string;
  read: (reply: unknown) => string | Failure;
}

/**
 * One system prompt + one user message, temperature 0, at most 1024 output tokens, via Node's built-in fetch.
 * Retries 429, 5xx, timeouts and network errors up to `maxRetries` extra times with jittered exponential backoff,
 * or after Retry-After when the server sends one. Other 4xx and malformed replies fail at once: retrying cannot fix them.
 * A caller's `signal` aborting rethrows its reason rather than an LlmError: cancelling is not a model failure.
 */
export async function complete(model: ModelSpec, system: string, user: string, options: CallOptions): Promise<Completion> {
  const started = performance.now();
  const request = model.protocol === 'anthropic' ? anthropicRequest(model, system, user) : openaiRequest(model, system, user);
  const sleep = options.sleep ?? ((ms: number) => delay(ms, undefined, { signal: options.signal }));
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    const outcome = await attemptOnce(request, options);
    if (typeof outcome === 'string') return { text: outcome, latencyMs: Math.round(performance.now() - started) };
    if (!outcome.retryable || attempt > options.maxRetries) throw toError(model, outcome, attempt);
    try {
      await sleep(outcome.retryAfterMs ?? backoffMs(attempt));
    } catch (error) {
      options.signal?.throwIfAborted();
      throw error;
    }
  }
}

function anthropicRequest(model: ModelSpec, system: string, user: string): Request {
  return {
    url: `${model.baseUrl}/v1/messages`,
    headers: { 'x-api-key': model.apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: model.model, max_tokens: MAX_TOKENS, temperature: 0, system, messages: [{ role: 'user', content: user }] }),
    read(reply) {
      const content = (reply as { content?: unknown } | null)?.content;
      if (!Array.isArray(content)) return malformed('no content array in the reply');
      const text = content
        .filter((block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string')
        .map((block) => block.text)
        .join('');
      // A refusal or a reply cut to thinking only has no text; there is no verdict to parse, so it must not be cached.
      return text === '' ? malformed(`reply has no text (stop_reason ${String((reply as { stop_reason?: unknown }).stop_reason)})`) : text;
    },
  };
}

function openaiRequest(model: ModelSpec, system: string, user: string): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (model.apiKey !== '') headers.authorization = `Bearer ${model.apiKey}`;
  return {
    url: `${model.baseUrl}/chat/completions`,
    headers,
    body: JSON.stringify({
      model: model.model,
      temperature: 0,
      max_tokens: MAX_TOKENS,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    read(reply) {
      const choice = (reply as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
      if (choice === undefined || typeof choice !== 'object' || choice === null) return malformed('no choices in the reply');
      const content = choice.message?.content;
      return typeof content === 'string' && content !== '' ? content : malformed(`reply has no text (finish_reason ${String(choice.finish_reason)})`);
    },
  };
}

async function attemptOnce(request: Request, options: CallOptions): Promise<string | Failure> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : either(timeout, options.signal);
  let status: number;
  let headers: Headers;
  let body: string;
  try {
    // The timeout covers reading the body too: a server can stall after sending headers.
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal });
    status = response.status;
    headers = response.headers;
    body = await response.text();
  } catch (error) {
    options.signal?.throwIfAborted();
    if (timeout.aborted) return { kind: 'timeout', detail: `no reply within ${options.timeoutMs} ms`, retryable: true };
    return { kind: 'network', detail: `cannot reach ${new URL(request.url).origin} (${networkReason(error)})`, retryable: true };
  }
  if (status < 200 || status > 299) {
    const retryable = status === 429 || status >= 500;
    const retryAfter = retryable ? retryAfterMs(headers.get('retry-after'), Date.now()) : undefined;
    return { kind: 'http', status, detail: `HTTP ${status}${providerMessage(body)}`, retryable, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) };
  }
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    return malformed(`reply is not JSON (${body.length} chars)`);
  }
  return request.read(reply);
}

function malformed(detail: string): Failure {
  return { kind: 'malformed', detail, retryable: false };
}

/** "Full jitter" over the upper half, so concurrent verifiers that failed together do not retry together. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)));
}

/** Both providers answer errors as {"error": {"type"?, "message"}}; the message says what to fix (unknown model, bad key). */
function providerMessage(body: string): string {
  let message: unknown;
  try {
    const error = (JSON.parse(body) as { error?: { message?: unknown } | string } | null)?.error;
    message = typeof error === 'string' ? error : error?.message;
  } catch {
    return '';
  }
  if (typeof message !== 'string' || message.trim() === '') return '';
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return `: ${oneLine.length > PROVIDER_MESSAGE_CHARS ? `${oneLine.slice(0, PROVIDER_MESSAGE_CHARS)}…` : oneLine}`;
}

/** fetch hides the real reason (ECONNREFUSED, ENOTFOUND, a TLS failure) in `cause`. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}

function toError(model: ModelSpec, failure: Failure, attempts: number): LlmError {
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  // Providers echo a rejected key in their 401 message ("Incorrect API key provided: sk-…"), and not every key has a known shape.
  // Only the provider's words are searched: a short test key must not eat the model's name.
  const detail = model.apiKey === '' ? failure.detail : failure.detail.replaceAll(model.apiKey, '[redacted api key]');
  const message = `${model.provider}/${model.model}: ${detail}${tries}`;
  return new LlmError(maskSecrets(maskUrlCredentials(message)).text, failure.kind, failure.status);
}

/** Aborts when either signal does (AbortSignal.any needs Node 20.3; we support all of Node 20). */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  const controller = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
