import { describe, expect, it } from 'vitest';
import { contractProblems } from '../helpers/provider-check.js';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { call as codexCall, jsonl as rollout, meta, output, assistant, resetClock, turnContext, user } from '../formats/codex/rollout.js';
import { pairingProblems } from '../formats/requests/contract.js';

/**
 * Gemini takes system instructions apart (`systemInstruction`), so a call turn after only system
 * or developer messages still opens the history it is sent (gem-fc-after-user-or-fr). In a
 * request line those are the OpenAI chat and Responses shapes' system / developer messages;
 * Codex's context messages are written with role user and reach the provider as user turns.
 */

const calls = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] };
const result = { role: 'tool', tool_call_id: 'call_1', content: 'x' };
const line = (value: object) => JSON.stringify(value) + '\n';

const cases = [
  {
    name: 'OpenAI chat: system, developer, then the call turn',
    line: line({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'Use tools.' }, calls, result, { role: 'assistant', content: 'Done.' }] }),
    list: 'messages',
    at: 2,
    message: /opens the history/,
  },
  {
    name: 'OpenAI chat: a reply, a system message, then the call turn',
    line: line({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'system', content: 'Be brief.' }, calls, result] }),
    list: 'messages',
    at: 3,
    message: /follows another assistant message/,
  },
  {
    name: 'Responses: a developer message, then the call',
    line: line({ input: [{ role: 'developer', content: 'Use tools.' }, { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: 'x' }] }),
    list: 'input',
    at: 1,
    message: /opens the history/,
  },
  {
    name: 'Anthropic: its system field, then the call turn',
    line: line({ system: 'Be brief.', messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }] }),
    list: 'messages',
    at: 0,
    message: /opens the history/,
  },
];

describe('call-turn-order: system messages are not a user turn for Gemini', () => {
  for (const { name, line: request, list, at, message } of cases) {
    it(`${name}: reported for gemini; repair puts the bridge right before the call turn; second run changes nothing`, async () => {
      const found = (await scanFor(request, 'gemini')).filter((finding) => finding.rule === 'call-turn-order');
      expect(found.map((finding) => [finding.pointer, finding.message])).toEqual([[`/${list}/${at}`, expect.stringMatching(message)]]);
      // The shape's own provider has no such term: nothing without --provider.
      expect((await scanFor(request)).filter((finding) => finding.rule === 'call-turn-order')).toEqual([]);
      for (const mode of ['discard', 'synthetic'] as const) {
        const once = await repairFor(request, 'gemini', mode);
        const before = JSON.parse(request)[list] as unknown[];
        const after = JSON.parse(once)[list] as Array<Record<string, unknown>>;
        expect(after.slice(0, at)).toEqual(before.slice(0, at));
        expect(after[at]).toMatchObject({ role: 'user' });
        expect(JSON.stringify(after[at])).toContain('(continue)');
        expect(after.slice(at + 1)).toEqual(before.slice(at));
        expect(pairingProblems(JSON.parse(once))).toEqual([]);
        expect((await scanFor(once, 'gemini')).filter((finding) => finding.severity === 'error')).toEqual([]);
        expect(await repairFor(once, 'gemini', mode)).toBe(once);
      }
    });
  }

  it('Mistral still takes a system message after tool results for user content (user-after-tool-result), and the bridge goes before it', async () => {
    const request = line({ messages: [{ role: 'user', content: 'Hi' }, calls, result, { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'More' }] });
    expect((await scanFor(request, 'mistral')).filter((finding) => finding.rule === 'user-after-tool-result').map((finding) => finding.pointer)).toEqual(['/messages/3']);
    const once = await repairFor(request, 'mistral', 'discard');
    expect(JSON.parse(once).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'system', 'user']);
    expect((await scanFor(once, 'mistral')).filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('Codex: a context message (role user) before the first call is a user turn; nothing to report or bridge', async () => {
    resetClock();
    const jsonl = rollout([meta(), turnContext(), user('<environment_context>\n  <cwd>/workspace/demo</cwd>\n</environment_context>'), codexCall('function', 'call_a'), output('function', 'call_a'), assistant('Done.')]);
    expect((await scanFor(jsonl, 'gemini')).filter((finding) => finding.rule === 'call-turn-order')).toEqual([]);
    expect(contractProblems(jsonl, 'gemini')).toEqual([]);
    expect(await repairFor(jsonl, 'gemini', 'discard')).toBe(jsonl);
  });
});
