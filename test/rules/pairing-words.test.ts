import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/pipeline/finding.js';
import { scanSource } from '../../src/pipeline/scan.js';
import type { ProviderId } from '../../src/providers/provider-id.js';
import { call, Session } from '../helpers/session.js';

// Every pairing finding quotes the error of the provider the file is judged against, exactly as
// reference/provider-rules.md has it, with the severity its grade gives; a provider that accepts
// what the rule finds makes the finding a warning without text.

type Json = Record<string, unknown>;
type Kind = 'missing' | 'orphan' | 'duplicate' | 'displaced' | 'reused';

const RULE: Record<Kind, string> = {
  missing: 'missing-tool-result',
  orphan: 'orphan-tool-result',
  duplicate: 'duplicate-tool-result',
  displaced: 'displaced-tool-result',
  reused: 'duplicate-tool-call-id',
};

// OpenAI chat dataset lines, one violation each.
const toolCall = (id: string) => ({ id, type: 'function', function: { name: 'read', arguments: '{}' } });
const chat = (...messages: Json[]) => `${JSON.stringify({ messages })}\n`;
const user = (content = 'and now?'): Json => ({ role: 'user', content });
const assistant = (...ids: string[]): Json => (ids.length > 0 ? { role: 'assistant', content: null, tool_calls: ids.map(toolCall) } : { role: 'assistant', content: 'Done.' });
const tool = (id: string): Json => ({ role: 'tool', tool_call_id: id, content: 'ok' });

const LINES: Record<Kind, string> = {
  missing: chat(user(), assistant('call_A'), user(), assistant()),
  orphan: chat(user(), assistant(), tool('call_B'), assistant()),
  duplicate: chat(user(), assistant('call_A'), tool('call_A'), tool('call_A'), assistant()),
  displaced: chat(user(), assistant('call_A'), user(), tool('call_A'), assistant()),
  reused: chat(user(), assistant('call_A'), tool('call_A'), assistant('call_A'), tool('call_A'), assistant()),
};

// The same in pi sessions (a call turn starts with "Let me look.", so its call is block 1).
const SESSIONS: Record<Kind, string> = {
  missing: new Session().user().calls(call('toolu_A')).user('and now?').reply().jsonl(),
  orphan: new Session().user().reply().result('toolu_B').reply().jsonl(),
  duplicate: new Session().user().calls(call('toolu_A')).result('toolu_A').result('toolu_A').reply().jsonl(),
  displaced: new Session().user().calls(call('toolu_A')).user('and now?').result('toolu_A').reply().jsonl(),
  reused: new Session().user().calls(call('toolu_A')).result('toolu_A').calls(call('toolu_A')).result('toolu_A').reply().jsonl(),
};

const ANTH_MISSING = (m: number, id: string) =>
  `messages.${m}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
const ANTH_UNEXPECTED = (m: number, b: number, id: string) =>
  `messages.${m}.content.${b}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
const OAI_MISSING = (id: string) =>
  `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${id}`;
const OAI_ORPHAN = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
const GEM_COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
const GEM_AFTER = 'Please ensure that function response turn comes immediately after a function call turn.';
const MIS_COUNT = 'Not the same number of function calls and responses';
const BRC_EXCEEDS = (m: number) => `The number of toolResult blocks at messages.${m}.content exceeds the number of toolUse blocks of previous turn.`;

/** `severity text` per violation; `warning` alone: the provider accepts it, so no text. Ids are the line's (call_A) or the session's (toolu_A). */
function expected(provider: ProviderId, id: (name: string) => string): Record<Kind, string> {
  const [a, b] = [id('A'), id('B')];
  switch (provider) {
    case 'anthropic':
    case 'vertex': {
      const name = provider === 'anthropic' ? 'Anthropic' : 'Anthropic (Vertex AI)';
      return {
        missing: `error ${name}: ${ANTH_MISSING(1, a)}`,
        orphan: `error ${name}: ${ANTH_UNEXPECTED(2, 0, b)}`,
        duplicate: `error ${name}: ${ANTH_UNEXPECTED(2, 1, a)}`,
        displaced: `error ${name}: ${ANTH_UNEXPECTED(3, 0, a)}`,
        reused: `error ${name}: messages.3.content.${id('A') === 'call_A' ? 0 : 1}: \`tool_use\` ids must be unique`,
      };
    }
    case 'openai-chat':
      return {
        missing: `error OpenAI Chat: ${OAI_MISSING(a)}`,
        orphan: `error OpenAI Chat: ${OAI_ORPHAN}`,
        duplicate: `error OpenAI Chat: Invalid parameter: Duplicate value for 'tool_call_id' of '${a}', in messages[2] and messages[3].`,
        displaced: `error OpenAI Chat: ${OAI_ORPHAN}`,
        reused: 'warning', // U: OpenAI's own wording is not captured
      };
    case 'openai-responses':
      return {
        missing: `error OpenAI Responses: No tool output found for function call ${a}.`,
        orphan: `error OpenAI Responses: No tool call found for function call output with call_id ${b}.`,
        duplicate: 'error', // enforced, no wording quoted
        displaced: 'warning', // outputs may come anywhere after their call
        reused: 'warning', // L, wording only from a compatible server
      };
    case 'gemini':
      return { missing: `error Gemini: ${GEM_COUNT}`, orphan: `error Gemini: ${GEM_AFTER}`, duplicate: `error Gemini: ${GEM_COUNT}`, displaced: `error Gemini: ${GEM_AFTER}`, reused: 'warning' };
    case 'mistral':
      return {
        missing: `error Mistral: ${MIS_COUNT}`,
        orphan: `error Mistral: ${MIS_COUNT}`,
        duplicate: `error Mistral: ${MIS_COUNT}`,
        displaced: "error Mistral: Unexpected role 'tool' after role 'user'",
        reused: `error Mistral: ${MIS_COUNT}`,
      };
    case 'bedrock':
      return {
        missing: `error Bedrock Converse: Expected toolResult blocks at messages.2.content for the following Ids: ${a}`,
        orphan: `error Bedrock Converse: ${BRC_EXCEEDS(2)}`,
        duplicate: `error Bedrock Converse: ${BRC_EXCEEDS(2)}`,
        displaced: `error Bedrock Converse: ${BRC_EXCEEDS(3)}`,
        reused: 'warning', // not known whether Converse rejects it
      };
  }
}

async function scan(name: string, text: string, provider?: ProviderId): Promise<Finding[]> {
  const report = await scanSource(name, Readable.from([Buffer.from(text)]), undefined, undefined, { provider });
  return report.findings;
}

const said = (finding: Finding | undefined) => (finding === undefined ? 'no finding' : `${finding.severity}${finding.providerError === undefined ? '' : ` ${finding.providerError}`}`);

const PROVIDERS: ProviderId[] = ['anthropic', 'bedrock', 'vertex', 'openai-chat', 'openai-responses', 'gemini', 'mistral'];
const KINDS = Object.keys(RULE) as Kind[];

describe.each(PROVIDERS)('--provider %s', (provider) => {
  it.each(KINDS)('a dataset line with a %s: the provider’s words and severity', async (kind) => {
    const found = await scan('dataset.jsonl', LINES[kind], provider);
    expect(said(found.find((finding) => finding.rule === RULE[kind]))).toBe(expected(provider, (name) => `call_${name}`)[kind]);
  });

  it.each(KINDS)('a pi session with a %s: the provider’s words and severity', async (kind) => {
    const found = await scan('session.jsonl', SESSIONS[kind], provider);
    expect(said(found.find((finding) => finding.rule === RULE[kind]))).toBe(expected(provider, (name) => `toolu_${name}`)[kind]);
  });
});

/** pi's `api` and `provider` on an assistant message that talked to each provider. */
const PI_APIS: Record<ProviderId, [string, string]> = {
  anthropic: ['anthropic-messages', 'anthropic'],
  vertex: ['anthropic-messages', 'google-vertex'],
  bedrock: ['bedrock-converse-stream', 'amazon-bedrock'],
  'openai-chat': ['openai-completions', 'openai'],
  'openai-responses': ['openai-responses', 'openai'],
  gemini: ['google-generative-ai', 'google'],
  mistral: ['mistral-conversations', 'mistral'],
};

describe('without --provider', () => {
  describe.each(PROVIDERS)('a pi session that talks to %s', (provider) => {
    it.each(KINDS)('with a %s quotes that provider where it refuses it, else Anthropic’s words; the rule’s own severity', async (kind) => {
      const [api, name] = PI_APIS[provider];
      const session = SESSIONS[kind].replaceAll('"api":"anthropic-messages","provider":"anthropic"', `"api":"${api}","provider":"${name}"`);
      const own = expected(provider, (id) => `toolu_${id}`)[kind];
      const refuses = own.startsWith('error ') && own.includes(':');
      const found = await scan('session.jsonl', session);
      expect(said(found.find((finding) => finding.rule === RULE[kind]))).toBe(refuses ? own : expected('anthropic', (id) => `toolu_${id}`)[kind]);
    });
  });

  it.each(KINDS)('a session with a %s keeps the words it always had (Anthropic’s)', async (kind) => {
    const found = await scan('session.jsonl', SESSIONS[kind]);
    expect(said(found.find((finding) => finding.rule === RULE[kind]))).toBe(expected('anthropic', (name) => `toolu_${name}`)[kind]);
  });

  it.each(KINDS)('an OpenAI chat line with a %s speaks for OpenAI Chat, its shape’s provider', async (kind) => {
    const found = await scan('dataset.jsonl', LINES[kind]);
    expect(said(found.find((finding) => finding.rule === RULE[kind]))).toBe(expected('openai-chat', (name) => `call_${name}`)[kind]);
  });
});

describe('request lines in the other shapes speak for their own provider', () => {
  const anthropicLine = (...messages: Json[]) => `${JSON.stringify({ model: 'claude-sonnet-4-5', system: 'Be brief.', messages })}\n`;
  const use = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: {} }] });
  const answer = (...ids: string[]) => ({ role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })) });
  const responsesLine = (...input: Json[]) => `${JSON.stringify({ input })}\n`;
  const fc = (id: string) => ({ type: 'function_call', call_id: id, name: 'read', arguments: '{}' });
  const out = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'ok' });
  const say = (role: string, text: string) => ({ role, content: text });
  const geminiLine = (...contents: Json[]) => `${JSON.stringify({ contents })}\n`;
  const turn = (role: string, ...parts: Json[]) => ({ role, parts });
  const fcall = (name: string, id?: string) => ({ functionCall: { name, args: {}, ...(id === undefined ? {} : { id }) } });
  const fresp = (name: string, id?: string) => ({ functionResponse: { name, response: { ok: true }, ...(id === undefined ? {} : { id }) } });
  const hi = { text: 'hi' };

  it.each([
    ['Anthropic, a missing result', anthropicLine(say('user', 'hi'), use('toolu_A'), say('user', 'hm')), 'missing-tool-result', `error Anthropic: ${ANTH_MISSING(1, 'toolu_A')}`],
    ['Anthropic, a duplicate result', anthropicLine(say('user', 'hi'), use('toolu_A'), answer('toolu_A', 'toolu_A')), 'duplicate-tool-result', `error Anthropic: ${ANTH_UNEXPECTED(2, 1, 'toolu_A')}`],
    ['Responses, a missing output', responsesLine(say('user', 'hi'), fc('call_A')), 'missing-tool-result', 'error OpenAI Responses: No tool output found for function call call_A.'],
    ['Responses, an output before its call', responsesLine(say('user', 'hi'), out('call_A'), fc('call_A')), 'displaced-tool-result', 'error OpenAI Responses: No tool call found for function call output with call_id call_A.'],
    ['Responses, an output later than the next item: accepted, a warning', responsesLine(say('user', 'hi'), fc('call_A'), say('user', 'hm'), out('call_A')), 'displaced-tool-result', 'warning'],
    ['Gemini, one response for two calls', geminiLine(turn('user', hi), turn('model', fcall('read'), fcall('list')), turn('user', fresp('read'))), 'missing-tool-result', `error Gemini: ${GEM_COUNT}`],
    ['Gemini, a response after a user turn', geminiLine(turn('user', hi), turn('user', fresp('read'))), 'orphan-tool-result', `error Gemini: ${GEM_AFTER}`],
    ['Gemini, two responses to one call', geminiLine(turn('user', hi), turn('model', fcall('read', 'a')), turn('user', fresp('read', 'a'), fresp('read', 'a'))), 'duplicate-tool-result', `error Gemini: ${GEM_COUNT}`],
    ['Gemini, a response a user turn away', geminiLine(turn('user', hi), turn('model', fcall('read', 'a')), turn('user', hi), turn('user', fresp('read', 'a'))), 'displaced-tool-result', `error Gemini: ${GEM_AFTER}`],
    ['Gemini, one id for two calls: ids are optional, a warning', geminiLine(turn('user', hi), turn('model', fcall('read', 'a')), turn('user', fresp('read', 'a')), turn('model', fcall('read', 'a')), turn('user', fresp('read', 'a'))), 'duplicate-tool-call-id', 'warning'],
  ])('%s', async (_, line, rule, words) => {
    const found = await scan('requests.jsonl', line);
    expect(said(found.find((finding) => finding.rule === rule))).toBe(words);
  });

  it('OpenAI counts each tool message as a message of its own', async () => {
    const line = chat(user(), assistant('call_A', 'call_B'), tool('call_A'), tool('call_B'), assistant('call_C'), tool('call_C'), tool('call_C'), assistant());
    const found = await scan('dataset.jsonl', line);
    expect(found.map(said)).toEqual(["error OpenAI Chat: Invalid parameter: Duplicate value for 'tool_call_id' of 'call_C', in messages[5] and messages[6]."]);
    // Anthropic's count puts consecutive results in one message.
    expect((await scan('dataset.jsonl', line, 'anthropic')).map(said)).toEqual([`error Anthropic: ${ANTH_UNEXPECTED(4, 1, 'call_C')}`]);
  });

  it('Mistral names a tool message right after a user message, and counts one after a reply', async () => {
    expect((await scan('dataset.jsonl', chat(user(), tool('call_B'), assistant()), 'mistral')).map(said)).toEqual(["error Mistral: Unexpected role 'tool' after role 'user'"]);
    expect((await scan('dataset.jsonl', LINES.orphan, 'mistral')).map(said)).toEqual([`error Mistral: ${MIS_COUNT}`]);
  });

  it('a request that ends with an unanswered call says so, not that no agent holds a transcript', async () => {
    const [finding] = await scan('dataset.jsonl', chat(user(), assistant('call_T')));
    expect(finding!.message).toBe('`read` call call_T has no tool result; the request ends with the call unanswered, so it is rejected.');
    expect(said(finding)).toBe(`error OpenAI Chat: ${OAI_MISSING('call_T')}`);
    const [session] = await scan('session.jsonl', new Session().user().calls(call('toolu_T')).jsonl());
    expect(session!.message).toMatch(/the transcript ends here and no running agent holds it/);
  });

  it('a partial call without input is worded by Anthropic only; other providers keep the finding without text', async () => {
    const line = anthropicLine(say('user', 'hi'), { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_P', name: 'read' }] }, answer('toolu_P'));
    const [anthropic] = (await scan('requests.jsonl', line)).filter((finding) => finding.rule === 'partial-tool-call');
    expect(said(anthropic)).toBe('error Anthropic: messages.1.content.1.tool_use.input: Field required');
    const [gemini] = (await scan('requests.jsonl', line, 'gemini')).filter((finding) => finding.rule === 'partial-tool-call');
    expect(said(gemini)).toBe('error');
  });
});

describe('Gemini calls without an id', () => {
  // The model numbers such calls itself (`#<item>.<part>`); that number is no one's to see.
  const line = `${JSON.stringify({
    contents: [
      { role: 'user', parts: [{ text: 'Read a and list' }] },
      { role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }, { functionCall: { name: 'list', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read', response: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'grep', response: {} } }] },
      { role: 'model', parts: [{ functionCall: { args: {} } }] },
    ],
  })}\n`;

  it.each([undefined, ...PROVIDERS])('are named by their tool, with --provider %s, and no finding shows an id the file does not hold', async (provider) => {
    const found = await scan('requests.jsonl', line, provider);
    const text = JSON.stringify(found);
    expect(text).not.toMatch(/#\d+\.\d+/);
    expect(found.find((finding) => finding.rule === 'missing-tool-result')?.message).toBe('`list` call (no id) has no tool result.');
    expect(found.find((finding) => finding.rule === 'orphan-tool-result')?.message).toBe('Tool result for `grep` (no id) answers no tool call.');
    expect(found.find((finding) => finding.rule === 'partial-tool-call')?.message).toBe('Tool call (no id) is incomplete: no name.');
    // An id the file does not hold has no shape to judge.
    expect(found.filter((finding) => finding.rule === 'tool-call-id-format')).toEqual([]);
  });
});
