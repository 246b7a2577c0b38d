import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/explain/catalogue.js';
import { recognise } from '../../src/explain/recognise.js';
import { UserError } from '../../src/errors.js';
import * as providerErrors from '../../src/rules/provider-errors.js';
import { providerText } from '../helpers/provider-text.js';
import type { TermId } from '../../src/providers/contract.js';
import { contracts } from '../../src/providers/index.js';
import { PROVIDER_IDS } from '../../src/providers/provider-id.js';
import { rules } from '../../src/rules/index.js';
import { SAMPLES } from './samples.js';

describe('the catalogue of provider errors', () => {
  it('has a realistic sample for every entry, and no sample without an entry', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(catalogue.map((entry) => entry.ref).sort());
  });

  it.each(catalogue.map((entry) => [entry.ref, entry] as const))('recognises %s from its sample', (ref, entry) => {
    const error = recognise(SAMPLES[ref]!);
    expect(error.entry.ref).toBe(ref);
    expect(error.entry.rules).toEqual(entry.rules);
    expect(error.provider.startsWith(entry.provider)).toBe(true);
  });

  it('names only rules that exist, each entry once', () => {
    const ids = new Set(rules.map((rule) => rule.meta.id));
    for (const entry of catalogue) for (const rule of entry.rules) expect(ids, `${entry.ref} → ${rule}`).toContain(rule);
    expect(new Set(catalogue.map((entry) => entry.ref)).size).toBe(catalogue.length);
  });

  it('reads the indices and every id the text names', () => {
    expect(recognise(SAMPLES['anth-tool-use-needs-result']!)).toMatchObject({
      messageIndex: 14,
      ids: ['toolu_01GfghBCkxKjjizDvsyeWy5B', 'toolu_01Rn7xkqMfF3yYvB5Zz9QeWp'],
    });
    expect(recognise(SAMPLES['anth-tool-result-orphan']!)).toMatchObject({ messageIndex: 244, blockIndex: 1, ids: ['toolu_01Qj4a5dWJzJ7c3xJq8yBmXT'] });
    expect(recognise(SAMPLES['gem-fr-name']!)).toMatchObject({ messageIndex: 18, blockIndex: 0, ids: [] });
    expect(recognise(SAMPLES['oai-chat-dup-tool-response']!)).toMatchObject({ messageIndex: 7, ids: ['call_5kQbUQmG3wTzq7Yb2X0nVdLc'] });
    expect(recognise(SAMPLES['resp-call-needs-output']!)).toMatchObject({ ids: ['call_sU7XBNcR8nNV7j2rvuzYEHCP'] });
    expect(recognise(SAMPLES['mmx-pairing-not-found']!).ids).toEqual(['call_function_8n3xk2p9qz1m_1']);
    expect(recognise(SAMPLES['brc-toolresult-missing']!).ids).toEqual(['tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'tooluse_9hBf0sRZQ2yWkq3GJvN0pA']);
  });

  it('keeps ids that hold dots, colons and bars whole', () => {
    expect(recognise('No tool output found for function call functions.read:3.').ids).toEqual(['functions.read:3']);
    expect(recognise('No tool call found for function call output with call_id call_ab12|fc_cd34').ids).toEqual(['call_ab12|fc_cd34']);
  });
});

describe('what users paste around the message', () => {
  const message = SAMPLES['anth-tool-use-needs-result']!;

  it.each([
    ['the Anthropic JSON body', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_011CXa9' })],
    ['a log line around the body', `2026-11-20T10:14:03.221Z ERROR agent: LLM request rejected: 400 ${JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } })}`],
    ['a proxy body whose message is the Anthropic JSON', JSON.stringify({ error: { code: 400, message: JSON.stringify({ type: 'error', error: { message } }), status: 'INVALID_ARGUMENT' } })],
    ['a log that escaped the JSON once more', JSON.stringify(JSON.stringify({ error: { message } }))],
    ['the message cut after the ids', 'messages.14: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01GfghBCkxKjjizDvsyeWy5B, toolu_01Rn7xkqMfF3yYvB5Zz9QeWp'],
    ['our own scan output', providerText('anthropic', 'missing-tool-result', { message: 14, ids: ['toolu_01GfghBCkxKjjizDvsyeWy5B', 'toolu_01Rn7xkqMfF3yYvB5Zz9QeWp'] })],
  ])('finds the error in %s', (_, pasted) => {
    const error = recognise(pasted);
    expect(error.entry.ref).toBe('anth-tool-use-needs-result');
    expect(error.messageIndex).toBe(14);
    expect(error.ids).toEqual(['toolu_01GfghBCkxKjjizDvsyeWy5B', 'toolu_01Rn7xkqMfF3yYvB5Zz9QeWp']);
  });

  it('names the Anthropic platform when the text shows it', () => {
    const vertex = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_vrtx_011CXa9' });
    expect(recognise(vertex).provider).toBe('Anthropic on Vertex AI');
    expect(recognise(`ValidationException: The model returned the following errors: ${message}`).provider).toBe('Anthropic on Bedrock');
    expect(recognise(message).provider).toBe('Anthropic');
  });

  it('reads OpenAI, Gemini and Mistral bodies', () => {
    const openai = { error: { message: SAMPLES['oai-chat-tool-msg-orphan'], type: 'invalid_request_error', param: 'messages.[3].role', code: null } };
    expect(recognise(JSON.stringify(openai)).entry.ref).toBe('oai-chat-tool-msg-orphan');
    const gemini = { error: { code: 400, message: SAMPLES['gem-fr-count'], status: 'INVALID_ARGUMENT' } };
    expect(recognise(`[GoogleGenerativeAI Error]: ${JSON.stringify(gemini)}`).entry.ref).toBe('gem-fr-count');
    const mistral = { object: 'error', message: SAMPLES['mis-call-response-count'], type: 'invalid_request_message_order', param: null, code: '3230' };
    expect(recognise(JSON.stringify(mistral)).entry.ref).toBe('mis-call-response-count');
  });
});

describe('our own provider texts, run backwards', () => {
  // Every text a finding carries (src/rules/provider-errors.ts, src/providers/) leads back to the rule that wrote it.
  it.each([
    ['missing-tool-result-name', providerErrors.functionResponseNameEmpty(7, 0)],
    ['empty-error-turn', providerErrors.bedrockEmptyContent(4)],
    ['empty-text-block', providerErrors.TEXT_BLOCK_EMPTY],
    ['empty-text-block', providerErrors.TEXT_BLOCK_WHITESPACE],
    ['blank-user-message', providerErrors.ALL_MESSAGES_EMPTY],
    ['orphan-server-tool-result', providerErrors.unexpectedServerToolResult(2, 1, 'advisor_tool_result', 'srvtoolu_01E')],
    ['invalid-tool-name', providerErrors.toolNamePattern(3, 1)],
  ])('%s: %s', (rule, text) => {
    expect(recognise(text).entry.rules).toContain(rule);
  });
});

describe('the pairing rules’ texts of every provider, run backwards', () => {
  // Each text a pairing finding can carry, in every place its wording depends on, and the rules that may write it.
  const writers: Array<[TermId, string[]]> = [
    ['missing-tool-result', ['missing-tool-result']],
    ['orphan-tool-result', ['orphan-tool-result', 'result-for-failed-turn', 'displaced-tool-result']],
    ['duplicate-tool-result', ['duplicate-tool-result']],
    ['duplicate-tool-call-id', ['duplicate-tool-call-id']],
    ['displaced-tool-result', ['displaced-tool-result']],
    ['partial-tool-call', ['partial-tool-call']],
  ];
  const texts = new Map<string, string[]>();
  for (const provider of PROVIDER_IDS) {
    for (const [term, rules] of writers) {
      if (contracts[provider].terms[term]?.text === undefined) continue;
      for (const after of ['calls', 'user', 'other'] as const) {
        const text = providerText(provider, term, { message: 4, block: 1, id: 'call_01', ids: ['call_01', 'call_02'], earlier: 3, after });
        texts.set(text, [...new Set([...(texts.get(text) ?? []), ...rules])]);
      }
    }
  }

  it.each([...texts])('%s', (text, rules) => {
    const recognised = recognise(text);
    for (const rule of rules) expect(recognised.entry.rules, recognised.entry.ref).toContain(rule);
  });
});

describe('text explain does not know', () => {
  it.each([
    ['an Anthropic body with other wording', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.3.content.0.image.source.base64: image exceeds 5 MB maximum' } }), /recognised an Anthropic error body, message index 3\)/],
    ['a bare status and an id', 'HTTP 400 while replaying toolu_01GfghBCkxKjjizDvsyeWy5B', /recognised HTTP 400, id toolu_01GfghBCkxKjjizDvsyeWy5B\)/],
    ['plain words', 'it broke again', /recognised no provider, error body or tool call id\)/],
  ])('is a one-line usage error naming what was recognised: %s', (_, text, expected) => {
    let thrown: unknown;
    try {
      recognise(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as Error).message).toMatch(expected);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('an empty text is a usage error', () => {
    expect(() => recognise('  \n')).toThrow(UserError);
  });
});

describe('recognise on absurd pastes', () => {
  it('a message index of 200,000 digits names no message (never "Infinity")', () => {
    const error = recognise(`messages.${'1'.repeat(200_000)}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_01AbCdEf`);
    expect(error.messageIndex).toBeUndefined();
    expect(error.ids).toEqual(['toolu_01AbCdEf']);
  });

  it('an unknown text naming a 200 KB id is refused in one short line, the id cut with an ellipsis', () => {
    const id = `call_${'x'.repeat(200_000)}`;
    let message = '';
    try {
      recognise(`HTTP 400 bad request ${id}`);
    } catch (error) {
      expect(error).toBeInstanceOf(UserError);
      message = (error as Error).message;
    }
    expect(message).toBe(`not a provider error explain knows (recognised HTTP 400, id ${id.slice(0, 79)}…); transcript-doctor rules lists what it checks`);
  });
});
