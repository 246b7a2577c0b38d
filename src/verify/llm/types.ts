/** The two wire formats we speak; every provider other than Anthropic is reached through an OpenAI-compatible endpoint. */
export type Protocol = 'anthropic' | 'openai';

/** A verifier model, resolved once from the command line and the environment. */
export interface ModelSpec {
  provider: string;
  model: string;
  protocol: Protocol;
  /** Without a trailing slash. */
  baseUrl: string;
  /** '' for keyless local servers (Ollama, llama.cpp, vLLM). */
  apiKey: string;
}

export interface Completion {
  text: string;
  /** Wall time of the whole call, retries and backoff included: what the run actually waited. */
  latencyMs: number;
}

export interface CallOptions {
  /** Per attempt, so a slow first try does not eat the budget of the retries. */
  timeoutMs: number;
  /** Extra attempts after the first. */
  maxRetries: number;
  signal?: AbortSignal;
  /** injectable for tests */
  sleep?: (ms: number) => Promise<void>;
}
