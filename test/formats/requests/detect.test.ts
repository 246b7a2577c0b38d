import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../src/formats/registry.js';
import { requestsFormat, shapeProvider } from '../../../src/formats/requests/index.js';
import { scanFile } from '../../../src/pipeline/scan.js';
import { rules } from '../../../src/rules/index.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');

/** The lines of a file that parse (session fixtures hold broken ones on purpose). */
function parsedLines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
}

describe('requests: detection', () => {
  it('every request fixture is detected as requests', async () => {
    for (const name of readdirSync(join(FIXTURES, 'requests')).filter((file) => file.endsWith('.jsonl'))) {
      expect((await scanFile(join(FIXTURES, 'requests', name))).format, name).toBe('requests');
    }
  });

  it('session fixtures are still detected as their own format, never as requests', async () => {
    for (const format of ['pi', 'claude-code', 'codex']) {
      for (const name of readdirSync(join(FIXTURES, format)).filter((file) => file.endsWith('.jsonl'))) {
        const report = await scanFile(join(FIXTURES, format, name));
        expect(report.format, `${format}/${name}`).toBe(format);
        for (const value of parsedLines(join(FIXTURES, format, name))) expect(requestsFormat.detect(value), `${format}/${name}`).toBe(false);
      }
    }
  });

  it('names the provider each line talks to', () => {
    const providers = (name: string) => parsedLines(join(FIXTURES, 'requests', name)).map(shapeProvider);
    expect(providers('openai-chat-healthy.jsonl')).toEqual(['openai-chat', 'openai-chat', 'openai-chat', 'openai-chat']);
    expect(providers('anthropic-healthy.jsonl')).toEqual(['anthropic', 'anthropic', 'anthropic']);
    expect(providers('responses-healthy.jsonl')).toEqual(['openai-responses', 'openai-responses']);
    expect(providers('gemini-healthy.jsonl')).toEqual(['gemini', 'gemini', 'gemini']);
  });

  it('tells Anthropic from OpenAI chat by Anthropic’s own fields and blocks, and plain chat defaults to OpenAI', () => {
    expect(shapeProvider({ messages: [{ role: 'user', content: 'hi' }] })).toBe('openai-chat');
    expect(shapeProvider({ model: 'claude-x', system: 'be brief', messages: [{ role: 'user', content: 'hi' }] })).toBe('anthropic');
    expect(shapeProvider({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }] })).toBe('anthropic');
    expect(shapeProvider({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:' } }] }] })).toBe('openai-chat');
    expect(shapeProvider({ custom_id: 'r1', method: 'POST', url: '/v1/chat/completions', body: { messages: [] } })).toBe('openai-chat');
    expect(shapeProvider({ request: { contents: [] } })).toBe('gemini');
    expect(shapeProvider({ input: 'a plain prompt' })).toBeUndefined();
    expect(shapeProvider({ type: 'message', message: { role: 'user', content: 'hi' } })).toBeUndefined();
    expect(shapeProvider('text')).toBeUndefined();
  });

  it('detectFormat picks requests only after the session formats', () => {
    expect(detectFormat({ messages: [] })?.name).toBe('requests');
    expect(detectFormat({ type: 'session', id: 'x', timestamp: '2026-01-01T00:00:00Z', messages: [] })?.name).toBe('pi');
  });

  it('--agent requests forces per-line judging of a file whose first lines are no requests', async () => {
    const report = await scanFile(join(FIXTURES, 'requests', 'openai-chat-broken.jsonl'), rules, requestsFormat);
    expect(report.format).toBe('requests');
    expect(report.findings.length).toBeGreaterThan(0);
  });
});
