import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { scanSource } from '../../../src/pipeline/scan.js';
import type { ProviderId } from '../../../src/providers/provider-id.js';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairBytes } from '../../helpers/repair-tester.js';
import { answer, calling, context, jsonl, metadata, resetClock, responses, rewritten, touched, user, type Line } from './session.js';

/**
 * The contract rules on the history a Gemini CLI client sends when it resumes a session, as
 * RuleTester tables: a session in, its findings (`line rule pointer`) and what repair leaves.
 */

const LS = { id: 'list_directory-1-a', name: 'list_directory' };
const READ = { id: 'read_file-2-b', name: 'read_file' };
const MODES: RepairMode[] = ['discard', 'synthetic'];

function opening(): Line[] {
  resetClock();
  return [metadata(), rewritten([context()]), user('u1', 'list the files'), touched()];
}

async function scan(lines: Line[] | string, provider?: ProviderId) {
  const text = typeof lines === 'string' ? lines : jsonl(lines);
  return (await scanSource('session.jsonl', Readable.from([Buffer.from(text)]), undefined, undefined, { provider })).findings;
}

const brief = async (lines: Line[] | string, provider?: ProviderId) => (await scan(lines, provider)).map((f) => `${f.line} ${f.rule} ${f.pointer ?? ''}`.trim());

async function repair(input: string, mode: RepairMode, provider?: ProviderId) {
  const { output } = await repairBytes(input, mode, 'session.jsonl', provider);
  const text = output.toString('utf8');
  return { text, lines: text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Line) };
}

/** A model message with one call whose recorded response names another tool. */
function misnamed(id: string): Line {
  const message = calling(id, [{ ...LS, output: 'a.txt' }]);
  message.toolCalls[0].result[0].functionResponse.name = 'read_file';
  return message;
}

/** A model message written as content parts (as a resume writes the history back), with a signed call and a signed thought. */
function signedParts(id: string): Line {
  return {
    id,
    timestamp: '2026-03-09T14:00:09.000Z',
    type: 'gemini',
    content: [
      { text: 'Looking at the folder.', thought: true, thoughtSignature: 'c2lnLXRob3VnaHQ=' },
      { functionCall: { id: LS.id, name: LS.name, args: {} }, thoughtSignature: 'c2lnLWNhbGw=' },
    ],
    toolCalls: [{ id: LS.id, name: LS.name, args: {}, result: [{ functionResponse: { id: LS.id, name: LS.name, response: { output: 'a.txt' } } }], status: 'success' }],
  };
}

interface Invalid {
  name: string;
  lines: () => Line[];
  provider?: ProviderId;
  /** `line rule pointer` of each finding. */
  errors: string[];
  /** The provider's words each finding quotes. */
  says?: string;
  /** Lines repair changes (1-based, as read), and what a line of the output holds afterwards. */
  changed?: number[];
  after?: (out: Line[]) => void;
}

const valid: Array<{ name: string; lines: () => Line[]; provider?: ProviderId }> = [
  { name: 'a healthy run: a call recorded while it runs, then with its result', lines: () => [...opening(), calling('m1', [{ ...LS }]), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'There is a.txt.')] },
  {
    name: 'a call turn after a context message and a command the client never sends is still after the prompt',
    lines: () => [...opening(), user('u2', '/stats'), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'There is a.txt.')],
  },
  {
    name: 'a response without an id paired by name: the client gives both one id, names agree',
    lines: () => {
      const call = calling('m1', [{ ...LS }]);
      delete call.toolCalls[0].id;
      return [...opening(), call, { ...responses('u2', [{ ...LS, output: 'a.txt' }]), content: [{ functionResponse: { name: 'list_directory', response: { output: 'a.txt' } } }] }, answer('m2', 'There is a.txt.')];
    },
  },
  { name: 'a blank text part of a message the client never sends (an info message)', lines: () => [...opening(), { ...answer('i1', ''), type: 'info', content: [{ text: ' ' }] }] },
  { name: 'a blank thought: the client strips thoughts before it sends', lines: () => [...opening(), { ...answer('m1', 'done'), content: [{ text: '', thought: true }, { text: 'done' }] }] },
  { name: 'signatures judged for Gemini, which signed them', lines: () => [...opening(), signedParts('m1'), answer('m2', 'done')] },
  { name: 'a signed thought judged for Anthropic: the client strips it before it sends', provider: 'anthropic', lines: () => [...opening(), { ...answer('m1', 'done'), content: [{ text: 'Thinking.', thought: true, thoughtSignature: 'c2ln' }, { text: 'done' }] }] },
];

const invalid: Invalid[] = [
  {
    name: 'a turn of calls that opens the history: the prompt before it starts with "//", sent to the model but skipped on resume',
    lines: () => [...opening().slice(0, 2), user('u1', '// why is this empty?'), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'There is a.txt.')],
    errors: ['4 call-turn-order'],
    says: 'Gemini: Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
    changed: [4],
    after: (out) => expect(out[3]).toMatchObject({ id: 'continue-m1', type: 'user', content: [{ text: '(continue)' }] }),
  },
  {
    name: 'a turn of calls that opens a $set.messages list gets a user message before it in the list',
    lines: () => {
      resetClock();
      return [metadata(), rewritten([context(), answer('m0', 'Resuming.'), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'There is a.txt.')])];
    },
    errors: ['2 call-turn-order /$set/messages/2'],
    changed: [2],
    after: (out) => expect(out[1]!.$set.messages.map((message: Line) => message.id)).toEqual(['c0ffee00c0ffee00c0ffee00c0ffee00', 'm0', 'continue-m1', 'm1', 'm2']),
  },
  {
    name: 'a turn of calls that opens the history, whose place is in a $set.messages list and whose winning copy is on a line of its own',
    lines: () => {
      resetClock();
      return [metadata(), rewritten([context(), calling('m1', [{ ...LS }])]), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'done')];
    },
    errors: ['3 call-turn-order'],
    changed: [2],
    after: (out) => expect(out[1]!.$set.messages.map((message: Line) => message.id)).toEqual(['c0ffee00c0ffee00c0ffee00c0ffee00', 'continue-m1', 'm1']),
  },
  {
    name: 'a recorded response that names another tool than its call',
    lines: () => [...opening(), misnamed('m1'), answer('m2', 'done')],
    errors: ['5 tool-result-name-mismatch /toolCalls/0/result/0/functionResponse/name'],
    says: 'Gemini: INVALID_ARGUMENT',
    changed: [5],
    after: (out) => expect(out[4]!.toolCalls[0].result[0].functionResponse.name).toBe('list_directory'),
  },
  {
    name: 'a response written in a user message that names another tool than its call',
    lines: () => [...opening(), calling('m1', [{ ...LS }]), { ...responses('u2', [{ ...LS, output: 'a.txt' }]), content: [{ functionResponse: { id: LS.id, name: 'ls', response: { output: 'a.txt' } } }] }, answer('m2', 'There is a.txt.')],
    errors: ['6 tool-result-name-mismatch /content/0/functionResponse/name'],
    changed: [6],
    after: (out) => expect(out[5]!.content[0].functionResponse.name).toBe('list_directory'),
  },
  {
    name: 'a recorded response without a name',
    lines: () => {
      const message = calling('m1', [{ ...LS, output: 'a.txt' }]);
      delete message.toolCalls[0].result[0].functionResponse.name;
      return [...opening(), message, answer('m2', 'done')];
    },
    errors: ['5 missing-tool-result-name /toolCalls/0/result/0/functionResponse/name'],
    says: 'Gemini: * GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty.',
    changed: [5],
    after: (out) => expect(out[4]!.toolCalls[0].result[0].functionResponse).toEqual({ id: LS.id, response: { output: 'a.txt' }, name: 'list_directory' }),
  },
  {
    name: 'a blank text part beside the prompt',
    lines: () => [...opening(), { ...user('u2', 'and the README?'), content: [{ text: 'and the README?' }, { text: '' }] }, answer('m2', 'Here.')],
    errors: ['5 empty-text-block /content/1'],
    says: 'Gemini: Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini',
    changed: [5],
    after: (out) => expect(out[4]!.content).toEqual([{ text: 'and the README?' }]),
  },
  {
    name: 'a whitespace-only text of a model message that calls: only the text goes',
    lines: () => [...opening(), calling('m1', [{ ...LS, output: 'a.txt' }], '  '), answer('m2', 'done')],
    errors: ['5 empty-text-block /content'],
    changed: [5],
    after: (out) => expect(out[4]).toMatchObject({ content: '', toolCalls: [{ id: LS.id }] }),
  },
  {
    name: 'signed parts judged for Anthropic: the call loses its signature, the thought goes',
    provider: 'anthropic',
    lines: () => [...opening(), signedParts('m1'), answer('m2', 'done')],
    errors: ['5 foreign-signed-reasoning /content/1'],
    says: 'Anthropic: messages.1.content.0: Invalid `signature` in `thinking` block',
    changed: [5],
    after: (out) => expect(out[4]!.content).toEqual([{ functionCall: { id: LS.id, name: LS.name, args: {} } }]),
  },
];

describe('contract rules on the history a Gemini CLI client sends', () => {
  for (const { name, lines, provider } of valid) {
    it(`valid: ${name}`, async () => {
      expect(await scan(lines(), provider)).toEqual([]);
    });
  }

  for (const { name, lines, provider, errors, says, changed, after } of invalid) {
    it(`invalid: ${name}`, async () => {
      const found = await scan(lines(), provider);
      expect(found.map((f) => `${f.line} ${f.rule} ${f.pointer ?? ''}`.trim())).toEqual(errors);
      expect(found.every((f) => f.severity === 'error')).toBe(true);
      if (says !== undefined) expect(found.map((f) => f.providerError)).toEqual(errors.map(() => says));
      for (const mode of MODES) {
        const text = jsonl(lines());
        const out = await repair(text, mode, provider);
        const before = text.split('\n');
        const written = out.text.split('\n');
        if (written.length === before.length) {
          expect(before.flatMap((line, i) => (line === written[i] ? [] : [i + 1])), mode).toEqual(changed);
        } else {
          // A line added before line `changed`: every line of the input is there, byte for byte, in its order.
          expect(written.length, mode).toBe(before.length + 1);
          expect(written.filter((line) => before.includes(line)), mode).toEqual(before);
          expect(written.findIndex((line) => !before.includes(line)) + 1, mode).toBe(changed![0]);
        }
        expect(await brief(out.text, provider), mode).toEqual([]);
        expect((await repair(out.text, mode, provider)).text, mode).toBe(out.text);
        after?.(out.lines);
      }
    });
  }
});

describe('the signed-parts fixture, judged for the provider that signed it and for another', () => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'gemini-cli', 'signed-parts.jsonl'), 'utf8');

  it('is healthy for Gemini', async () => {
    expect(await scan(text)).toEqual([]);
  });

  it('has a foreign signature for Anthropic, at the first signed part the client sends, which repair takes away', async () => {
    expect(await brief(text, 'anthropic')).toEqual(['2 foreign-signed-reasoning /$set/messages/2/content/1']);
    const out = await repair(text, 'discard', 'anthropic');
    expect(out.text).not.toContain('thoughtSignature');
    expect(await brief(out.text, 'anthropic')).toEqual([]);
  });
});

describe('a provider named for a Gemini CLI session decides what is refused', () => {
  const blank = () => [...opening(), { ...user('u2', 'and the README?'), content: [{ text: 'and the README?' }, { text: '' }] }, misnamed('m1'), answer('m2', 'Here.')];

  it('one that takes blank parts and any names (OpenAI Chat): nothing reported, nothing repaired', async () => {
    const text = jsonl(blank());
    expect(await scan(text, 'openai-chat')).toEqual([]);
    expect((await repair(text, 'discard', 'openai-chat')).text).toBe(text);
  });

  it('Gemini named: the same findings as when nobody names it', async () => {
    const text = jsonl(blank());
    expect(await brief(text, 'gemini')).toEqual(await brief(text));
    expect(await brief(text)).toEqual(['5 empty-text-block /content/1', '6 tool-result-name-mismatch /toolCalls/0/result/0/functionResponse/name']);
  });
});
