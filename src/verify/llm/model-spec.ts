import { UserError } from '../../errors.js';
import type { ModelSpec, Protocol } from './types.js';
import { maskUrlCredentials } from './url-credentials.js';

const DEFAULT_BASE_URL: Record<Protocol, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
};

const DEFAULT_KEY_ENV: Record<Protocol, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/**
 * "anthropic/claude-sonnet-4-5" | "openai/gpt-4.1" | "<any>/<model>" (OpenAI-compatible). Protocol: anthropic for
 * provider "anthropic", else openai. The model part may itself contain slashes ("openrouter/meta-llama/llama-3.3-70b").
 * baseUrl defaults: https://api.anthropic.com, https://api.openai.com/v1; `baseUrl` option overrides.
 * Key: from env NAME given by apiKeyEnv, else ANTHROPIC_API_KEY / OPENAI_API_KEY by protocol. A missing key throws
 * UserError — but a custom baseUrl with the openai protocol may run keyless (local servers like Ollama): then apiKey ''.
 */
export function resolveModel(spec: string, options: { baseUrl?: string; apiKeyEnv?: string; env?: NodeJS.ProcessEnv }): ModelSpec {
  const slash = spec.indexOf('/');
  const provider = spec.slice(0, slash).trim().toLowerCase();
  const model = spec.slice(slash + 1).trim();
  if (slash < 0 || provider === '' || model === '') {
    throw new UserError(`model must look like provider/model (e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4.1), got "${spec}"`);
  }
  const protocol: Protocol = provider === 'anthropic' ? 'anthropic' : 'openai';
  const name = `${provider}/${model}`;
  const custom = options.baseUrl === undefined ? undefined : checkedBaseUrl(options.baseUrl);
  // Sending "llama3" and the user's OpenAI key to api.openai.com would only ever fail, and confusingly.
  if (custom === undefined && provider !== 'anthropic' && provider !== 'openai') {
    throw new UserError(`${name}: set --base-url to the OpenAI-compatible endpoint of "${provider}" (e.g. http://localhost:11434/v1 for Ollama)`);
  }
  return { provider, model, protocol, baseUrl: custom ?? DEFAULT_BASE_URL[protocol], apiKey: apiKeyFor(name, protocol, custom !== undefined, options) };
}

function checkedBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UserError(`--base-url must be an http(s) URL, got "${maskUrlCredentials(raw)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`--base-url must be an http(s) URL, got "${maskUrlCredentials(raw)}"`);
  // Paths are appended as "/v1/messages" or "/chat/completions"; a trailing slash would double it.
  return url.href.replace(/\/+$/, '');
}

function apiKeyFor(name: string, protocol: Protocol, customBaseUrl: boolean, options: { apiKeyEnv?: string; env?: NodeJS.ProcessEnv }): string {
  const env = options.env ?? process.env;
  if (options.apiKeyEnv !== undefined) {
    // The user named a variable, so they expect a key: keyless would hide a typo in the name.
    const key = env[options.apiKeyEnv]?.trim();
    if (!key) throw new UserError(`set ${options.apiKeyEnv} (named by --api-key-env) to use ${name}`);
    return key;
  }
  const variable = DEFAULT_KEY_ENV[protocol];
  const key = env[variable]?.trim();
  if (key) return key;
  if (protocol === 'openai' && customBaseUrl) return '';
  throw new UserError(`set ${variable} (or --api-key-env NAME) to use ${name}`);
}
