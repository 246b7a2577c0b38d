import { describe, expect, it } from 'vitest';
import { testRule, type InvalidCase, type ValidCase } from '../helpers/rule-tester.js';
import { call, Session, text } from '../helpers/session.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-id.js';
import type { Rule } from '../../src/rules/rule.js';
import { toolCallIdFormat } from '../../src/rules/contract/tool-call-id-format.js';
import { toolResultNameMismatch } from '../../src/rules/contract/tool-result-name-mismatch.js';
import { userAfterToolResult } from '../../src/rules/contract/user-after-tool-result.js';
import { callTurnOrder } from '../../src/rules/contract/call-turn-order.js';
import { finalAssistantWhitespace } from '../../src/rules/contract/final-assistant-whitespace.js';
import { foreignSignedReasoning } from '../../src/rules/contract/foreign-signed-reasoning.js';
import { imageLimits } from '../../src/rules/contract/image-limits.js';
import { runCli } from '../cli/run-cli.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * For every contract rule and every provider: the session that breaks the rule is flagged with
 * that provider's exact text where its contract has the rule, and passes where it does not.
 */
function perProvider(rule: Rule, jsonl: string, expected: Partial<Record<ProviderId, { line: number; providerError?: RegExp; severity?: 'error' | 'warning' } | null>>): void {
  const valid: ValidCase[] = [];
  const invalid: InvalidCase[] = [];
  for (const provider of PROVIDER_IDS) {
    const want = expected[provider];
    // null: the provider has the rule, and this session does not break it.
    if (want !== null) expect(want !== undefined, `${rule.meta.id} on ${provider}: table and contract agree`).toBe(rule.meta.providers?.[provider] !== undefined);
    if (want === undefined || want === null) valid.push({ name: `${provider} ${want === null ? 'accepts this session' : 'does not enforce it'}`, jsonl, provider });
    else invalid.push({ name: `${provider} rejects it`, jsonl, provider, findings: [want] });
  }
  testRule(rule, { valid, invalid });
}

const KIMI = 'functions.read:0';
const LONG = `toolu_01${'A'.repeat(70)}`;

// One id that breaks every id shape: foreign characters, 78 characters long.
const badIds = new Session().user().calls(call(`${KIMI}${'x'.repeat(62)}`)).result(`${KIMI}${'x'.repeat(62)}`).reply().jsonl();
const charsetText = (name: string) => new RegExp(`^${name.replace(/[()]/g, '\\$&')}: messages\\.1\\.content\\.1\\.tool_use\\.id: String should match pattern '\\^\\[a-zA-Z0-9_-\\]\\+\\$'$`);
perProvider(toolCallIdFormat, badIds, {
  anthropic: { line: 3, providerError: charsetText('Anthropic') },
  vertex: { line: 3, providerError: charsetText('Anthropic (Vertex AI)') },
  bedrock: { line: 3 },
  'openai-chat': { line: 3, providerError: /^OpenAI Chat: Invalid 'messages\[1\]\.tool_calls\[0\]\.id': string too long\. Expected a string with maximum length 40, but got a string with length 78 instead\.$/ },
  'openai-responses': { line: 3, providerError: /^OpenAI Responses: Invalid 'input\[1\]\.call_id': string too long\. Expected a string with maximum length 64, but got a string with length 78 instead\.$/ },
  mistral: { line: 3, providerError: /^Mistral: Tool call id was functions\.read:0x+ but must be a-z, A-Z, 0-9, with a length of 9\.$/ },
});

testRule(toolCallIdFormat, {
  valid: [
    { name: 'Anthropic ids suit Anthropic', jsonl: new Session().user().calls(call('toolu_01AAAA')).result('toolu_01AAAA').reply().jsonl(), provider: 'anthropic' },
    { name: 'a 9-character id suits Mistral', jsonl: new Session().user().calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').reply().jsonl(), provider: 'mistral' },
    { name: "pi's call_…|fc_… ids: the Responses API gets the part before the bar", jsonl: new Session().user().calls(call(`call_abc|fc_${'f'.repeat(60)}`)).result(`call_abc|fc_${'f'.repeat(60)}`).reply().jsonl(), provider: 'openai-responses' },
    { name: 'without --provider, pi adapts other models’ ids itself', jsonl: new Session().user().calls(call(KIMI)).result(KIMI).reply().jsonl() },
    { name: 'Gemini has no id rule', jsonl: new Session().user().calls(call(KIMI)).result(KIMI).reply().jsonl(), provider: 'gemini' },
  ],
  invalid: [
    {
      name: 'ids over 64 characters: a warning for Anthropic (unconfirmed limit)',
      jsonl: new Session().user().calls(call(LONG)).result(LONG).reply().jsonl(),
      provider: 'anthropic',
      findings: [{ line: 3, severity: 'warning', message: /is 78 characters long/ }],
    },
    {
      name: 'Mistral: a 9-character id with an underscore',
      jsonl: new Session().user().calls(call('call_1234')).result('call_1234').reply().jsonl(),
      provider: 'mistral',
      findings: [{ line: 3, providerError: 'Mistral: Tool call id was call_1234 but must be a-z, A-Z, 0-9, with a length of 9.' }],
    },
  ],
});

const mismatch = new Session().user().calls(call('toolu_01A', 'read')).result('toolu_01A', 'write').reply().jsonl();
perProvider(toolResultNameMismatch, mismatch, { gemini: { line: 4, providerError: /^Gemini: INVALID_ARGUMENT$/ } });
testRule(toolResultNameMismatch, {
  valid: [
    { name: 'same name', jsonl: new Session().user().calls(call('toolu_01A', 'read')).result('toolu_01A', 'read').reply().jsonl(), provider: 'gemini' },
    { name: 'no name is missing-tool-result-name’s finding', jsonl: new Session().user().calls(call('toolu_01A', 'read')).result('toolu_01A', null).reply().jsonl(), provider: 'gemini' },
  ],
  invalid: [],
});

const userAfterTool = new Session().user().calls(call('toolu_01A')).result('toolu_01A').user('wait, stop').reply().jsonl();
perProvider(userAfterToolResult, userAfterTool, { mistral: { line: 5, providerError: /^Mistral: Unexpected role 'user' after role 'tool'$/ } });

const callAfterAssistant = new Session().user().reply('Let me think.').calls(call('toolu_01A')).result('toolu_01A').reply().jsonl();
const gemOrder = /^Gemini: Please ensure that function call turn comes immediately after a user turn or after a function response turn\.$/;
perProvider(callTurnOrder, callAfterAssistant, { gemini: { line: 4, providerError: gemOrder } });
testRule(callTurnOrder, {
  valid: [{ name: 'calls after tool results', jsonl: new Session().user().calls(call('a1')).result('a1').calls(call('a2')).result('a2').reply().jsonl(), provider: 'gemini' }],
  invalid: [{ name: 'history that opens with a call', jsonl: new Session().calls(call('a1')).result('a1').reply().jsonl(), provider: 'gemini', findings: [{ line: 2, message: /opens the history/ }] }],
});

const trailing = new Session().user().reply('Done.\n').jsonl();
const wsText = /final assistant content cannot end with trailing whitespace$/;
perProvider(finalAssistantWhitespace, trailing, { anthropic: { line: 3, providerError: wsText }, vertex: { line: 3, providerError: wsText }, bedrock: { line: 3, providerError: /^Bedrock Converse: The model returned the following errors: messages: final/ } });
testRule(finalAssistantWhitespace, {
  valid: [{ name: 'only the final message counts', jsonl: new Session().user().reply('Done.\n').user('more').reply('ok').jsonl(), provider: 'anthropic' }],
  invalid: [{ name: 'Claude Code sessions are judged against Anthropic without --provider', jsonl: claudeCode('Done. '), findings: [{ line: 2 }] }],
});

// A Responses turn with encrypted reasoning, then the session goes on with Anthropic.
const signedByOpenAI = new Session()
  .user()
  .assistant([{ type: 'thinking', thinking: '', thinkingSignature: '{"type":"reasoning","id":"rs_1","encrypted_content":"gAAAA"}' }, text('Hi.')], 'stop', {
    message: { api: 'openai-responses', provider: 'openai', model: 'gpt-5.2' },
  })
  .user('and now?')
  .reply()
  .jsonl();
perProvider(foreignSignedReasoning, signedByOpenAI, {
  anthropic: { line: 3, providerError: /^Anthropic: messages\.1\.content\.0: Invalid `signature` in `thinking` block$/ },
  vertex: { line: 3 },
  bedrock: { line: 3, providerError: /^Bedrock Converse: The model returned the following errors: messages\.1\.content\.0: Invalid `signature`/ },
  gemini: { line: 3, providerError: /^Gemini: Corrupted thought signature\.$/ },
  // Its own reasoning: nothing to report, although the Responses API checks signatures.
  'openai-responses': null,
});

// A JPEG a screenshot tool saved as PNG, pasted into a prompt.
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]).toString('base64');
const mislabelled = new Session().user([text('What is on it?'), { type: 'image', data: JPEG, mimeType: 'image/png' }]).reply().jsonl();
perProvider(imageLimits, mislabelled, {
  anthropic: { line: 2, providerError: /^Anthropic: messages\.0\.content\.1\.image\.source\.base64\.data: Image does not match the provided media type image\/png$/ },
  vertex: { line: 2 },
  'openai-chat': { line: 2, providerError: /^OpenAI Chat: You uploaded an unsupported image\. Please make sure your image is below 20 MB/ },
});
// Six megabytes of PNG, as a tool returned it.
const big = PNG + 'A'.repeat(8_000_000);
testRule(imageLimits, {
  valid: [
    { name: 'a PNG that is one', jsonl: new Session().user([{ type: 'image', data: PNG, mimeType: 'image/png' }]).reply().jsonl(), provider: 'anthropic' },
    // How big an image may be is image-too-large's (test/rules/size/).
    { name: 'a PNG over 5 MB is not a media type problem', jsonl: new Session().user().calls(call('c1')).result('c1', 'read', { message: { content: [{ type: 'image', data: big, mimeType: 'image/png' }] } }).reply().jsonl(), provider: 'anthropic' },
    { name: 'OpenAI Chat takes 6 MB', jsonl: new Session().user().calls(call('c1')).result('c1', 'read', { message: { content: [{ type: 'image', data: big, mimeType: 'image/png' }] } }).reply().jsonl(), provider: 'openai-chat' },
  ],
  invalid: [
    {
      name: 'Claude Code sessions are judged against Anthropic: a BMP in a prompt',
      jsonl: claudeCodeImage(Buffer.from('BM\0\0\0\0\0\0\0\0\0\0').toString('base64'), 'image/bmp'),
      findings: [{ line: 1, providerError: /media_type: Input should be 'image\/jpeg', 'image\/png', 'image\/gif' or 'image\/webp'$/ }],
    },
  ],
});

// Without --provider a pi session is judged against the provider its last replayed turn used.
const mistralTurn = { message: { api: 'mistral-conversations', provider: 'mistral', model: 'devstral' } };
testRule(userAfterToolResult, {
  valid: [
    { name: 'pi: the last turn went to Anthropic', jsonl: new Session().user().calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').user('stop').reply().jsonl() },
    {
      name: 'pi: the last turn went through OpenRouter (no contract: shared rules only)',
      jsonl: new Session().user().calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').user('stop').assistant([text('ok')], 'stop', { message: { api: 'openai-completions', provider: 'openrouter', model: 'x' } }).jsonl(),
    },
    {
      name: 'pi: a Mistral turn on an abandoned branch does not count',
      jsonl: new Session().user('q', { id: 'u0000001' }).calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').user('stop').assistant([text('ok')], 'stop', mistralTurn).user('other', { parent: 'u0000001' }).reply().jsonl(),
    },
  ],
  invalid: [
    {
      name: 'pi: the last turn went to Mistral',
      jsonl: new Session().user().calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').user('stop').assistant([text('ok')], 'stop', mistralTurn).jsonl(),
      findings: [{ line: 5, providerError: "Mistral: Unexpected role 'user' after role 'tool'" }],
    },
  ],
});

function claudeCodeImage(data: string, mediaType: string): string {
  const user = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-03-02T09:00:00.000Z', message: { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: mediaType, data } }, { type: 'text', text: 'what is it?' }] } };
  return `${JSON.stringify(user)}\n`;
}

function claudeCode(reply: string): string {
  const user = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-03-02T09:00:00.000Z', message: { role: 'user', content: 'hi' } };
  const assistant = { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-03-02T09:00:01.000Z', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: reply }] } };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

describe('--provider on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-provider-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, badIds);
  it('each provider that enforces a rule exits 1 with its own text; one that does not exits 0', async () => {
    for (const provider of PROVIDER_IDS) {
      const result = await runCli(['scan', '--provider', provider, file, '-r', 'json']);
      const findings = JSON.parse(result.stdout).files[0].findings.filter((f: { rule: string }) => f.rule === 'tool-call-id-format');
      expect(result.code, provider).toBe(provider === 'gemini' ? 0 : 1);
      expect(findings.length, provider).toBe(provider === 'gemini' ? 0 : 1);
    }
  });
  it('the worker threads of --jobs judge against the same provider', async () => {
    const many = mkdtempSync(join(tmpdir(), 'td-provider-jobs-'));
    for (let i = 0; i < 9; i++) writeFileSync(join(many, `s${i}.jsonl`), badIds);
    const result = await runCli(['scan', '--jobs', '2', '--provider', 'mistral', many, '-r', 'json']);
    const perFile = JSON.parse(result.stdout).files.map((f: { findings: Array<{ rule: string; providerError?: string }> }) => f.findings.filter((x) => x.rule === 'tool-call-id-format' && x.providerError?.startsWith('Mistral: ')).length);
    expect(perFile).toEqual(Array(9).fill(1));
  });
  it('an unknown provider is a usage error that lists the valid ones', async () => {
    const result = await runCli(['scan', '--provider', 'openai', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`transcript-doctor: --provider "openai" is not a known provider (one of: ${PROVIDER_IDS.join(', ')})\n`);
    expect((await runCli(['repair', '--provider', 'claude', '--dry-run', file])).code).toBe(2);
  });
  it('the project config names the provider; --provider wins over it', async () => {
    writeFileSync(join(dir, 'transcript-doctor.config.json'), JSON.stringify({ provider: 'gemini' }));
    expect((await runCli(['scan', 'session.jsonl'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['scan', '--provider', 'mistral', 'session.jsonl'], { cwd: dir })).code).toBe(1);
    writeFileSync(join(dir, 'transcript-doctor.config.json'), JSON.stringify({ provider: 'groq' }));
    const bad = await runCli(['scan', 'session.jsonl'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"provider" "groq" is not a known provider \(one of: anthropic, /);
  });
});
