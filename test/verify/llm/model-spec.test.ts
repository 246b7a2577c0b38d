import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import { resolveModel } from '../../../src/verify/llm/model-spec.js';

const env = { ANTHROPIC_API_KEY: 'sk-ant-env', OPENAI_API_KEY: 'sk-openai-env', MY_KEY: 'my-key' };

describe('resolveModel', () => {
  it('resolves Anthropic and OpenAI with their default endpoints and keys', () => {
    expect(resolveModel('anthropic/claude-sonnet-4-5', { env })).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      protocol: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'sk-ant-env',
    });
    expect(resolveModel('openai/gpt-4.1', { env })).toEqual({
      provider: 'openai',
      model: 'gpt-4.1',
      protocol: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-openai-env',
    });
  });

  it('keeps slashes in the model part and reads the key from --api-key-env', () => {
    expect(resolveModel('openrouter/meta-llama/llama-3.3-70b', { baseUrl: 'https://openrouter.ai/api/v1/', apiKeyEnv: 'MY_KEY', env })).toEqual({
      provider: 'openrouter',
      model: 'meta-llama/llama-3.3-70b',
      protocol: 'openai',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'my-key',
    });
  });

  it('lets --base-url override the default and trims the trailing slash', () => {
    expect(resolveModel('anthropic/claude-haiku-4-5', { baseUrl: 'http://127.0.0.1:8080/', env }).baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('runs keyless against a custom OpenAI-compatible server', () => {
    expect(resolveModel('ollama/llama3.1:8b', { baseUrl: 'http://localhost:11434/v1', env: {} })).toEqual({
      provider: 'ollama',
      model: 'llama3.1:8b',
      protocol: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
    });
  });

  it.each([
    ['anthropic/claude-sonnet-4-5', {}, 'set ANTHROPIC_API_KEY (or --api-key-env NAME) to use anthropic/claude-sonnet-4-5'],
    ['openai/gpt-4.1', {}, 'set OPENAI_API_KEY (or --api-key-env NAME) to use openai/gpt-4.1'],
    ['anthropic/claude-sonnet-4-5', { baseUrl: 'http://localhost:9000' }, 'set ANTHROPIC_API_KEY (or --api-key-env NAME) to use anthropic/claude-sonnet-4-5'],
    ['ollama/llama3', { baseUrl: 'http://localhost:11434/v1', apiKeyEnv: 'OLLAMA_KEY' }, 'set OLLAMA_KEY (named by --api-key-env) to use ollama/llama3'],
  ])('throws UserError for %s without a key (%j)', (spec, extra, message) => {
    expect(() => resolveModel(spec, { ...extra, env: { OPENAI_API_KEY: '  ' } })).toThrow(new UserError(message));
  });

  it.each([
    ['claude-sonnet-4-5', {}, /must look like provider\/model/],
    ['anthropic/', {}, /must look like provider\/model/],
    ['/gpt-4.1', {}, /must look like provider\/model/],
    ['groq/llama-3.3-70b', {}, /set --base-url to the OpenAI-compatible endpoint of "groq"/],
    ['openai/gpt-4.1', { baseUrl: 'localhost:11434' }, /--base-url must be an http\(s\) URL/],
    ['openai/gpt-4.1', { baseUrl: 'not a url' }, /--base-url must be an http\(s\) URL/],
  ])('rejects %s %j with a UserError', (spec, extra, message) => {
    expect(() => resolveModel(spec, { ...extra, env })).toThrow(UserError);
    expect(() => resolveModel(spec, { ...extra, env })).toThrow(message);
  });
});
