import { describe, expect, it } from 'vitest';
import { maskUrlCredentials } from '../../../src/verify/llm/url-credentials.js';

describe('maskUrlCredentials', () => {
  it.each([
    ['http://admin:UrlPassw0rdSecret@127.0.0.1:9/v1', 'http://admin:***@127.0.0.1:9/v1'],
    ['https://:onlyPass@host/v1', 'https://:***@host/v1'],
    ['redis://u:p@ss@w0rd@cache:6379/0', 'redis://u:***@cache:6379/0'],
    ['http://host/v1?api_key=Q123&model=x', 'http://host/v1?api_key=***&model=x'],
    ['http://host/v1?key=AIzaAbc&x-api-key=k2;token=t3', 'http://host/v1?key=***&x-api-key=***;token=***'],
    ['https://a.blob.core.windows.net/c?sv=2022&sig=abc%2Bdef&access_token=z', 'https://a.blob.core.windows.net/c?sv=2022&sig=***&access_token=***'],
    ['got "ftp://admin:pw@h/?password=pw2" here', 'got "ftp://admin:***@h/?password=***" here'],
  ])('%s', (url, shown) => {
    expect(maskUrlCredentials(url)).toBe(shown);
  });

  it('keeps URLs without credentials, and user names, as they are', () => {
    for (const url of ['http://localhost:11434/v1', 'http://user@host/v1', 'https://host/v1?monkey=1&keyboard=2&page=3', 'sending text to https://api.openai.com/v1 (openai/gpt)']) {
      expect(maskUrlCredentials(url)).toBe(url);
    }
  });
});
