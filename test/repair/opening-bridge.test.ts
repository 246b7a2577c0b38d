import { describe, expect, it } from 'vitest';
import { contractProblems, userTexts } from '../helpers/provider-check.js';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { call, Session, text } from '../helpers/session.js';
import { assistant, call as codexCall, jsonl as rollout, meta, output, reasoning, resetClock, tokens, turnContext, type Line } from '../formats/codex/rollout.js';
import { pairingProblems } from '../formats/requests/contract.js';

/**
 * A history that opens with a turn of calls (head truncation, a compaction that kept the calls,
 * a dataset line cut from the middle) breaks Gemini's "function call turn comes immediately
 * after a user turn". Repair for Gemini prepends a user message where each format puts the
 * first message: after pi's header, at the root of Claude Code's tree, first in a request's list.
 */

const OPENS = /^Gemini: Please ensure that function call turn comes immediately after a user turn or after a function response turn\.$/;

function claudeCode(): string {
  const base = { sessionId: 's1', cwd: '/workspace/demo', version: '2.1.19', userType: 'external', isSidechain: false };
  const line = (uuid: string, parentUuid: string | null, type: string, message: object) => JSON.stringify({ parentUuid, ...base, type, message, uuid, timestamp: '2026-03-02T09:00:00.000Z' });
  return [
    JSON.stringify({ type: 'summary', summary: 'Tidying notes', leafUuid: 'a3' }),
    // One response written over two lines: a text line first, the call after it.
    line('a1', null, 'assistant', { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Reading the notes.' }] }),
    line('a2', 'a1', 'assistant', { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'Read', input: { file_path: 'notes.md' } }] }),
    line('r1', 'a2', 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'ok' }] }),
    line('u1', 'r1', 'user', { role: 'user', content: 'Now tidy them.' }),
    line('a3', 'u1', 'assistant', { id: 'msg_3', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Tidied.' }] }),
  ].map((value) => `${value}\n`).join('');
}

function codex(numbered: boolean): string {
  resetClock();
  // Codex's own session header and turn context come first; the first item of history is the call.
  const lines: Line[] = [meta(), turnContext(), codexCall('function', 'call_a'), tokens(), output('function', 'call_a'), assistant('Two files.')];
  return rollout(numbered ? lines.map((value, i) => ({ timestamp: value.timestamp, ordinal: i, type: value.type, payload: value.payload })) : lines);
}

const gemini = (nothingElse: boolean) => JSON.stringify({
  contents: [
    { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: 'a' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'x' } } }] },
    ...(nothingElse ? [] : [{ role: 'model', parts: [{ text: 'Done.' }] }, { role: 'user', parts: [{ text: 'Thanks' }] }]),
  ],
}) + '\n';

const chat = JSON.stringify({
  messages: [
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'x' },
    { role: 'assistant', content: 'Done.' },
  ],
}) + '\n';

/** Sessions whose history opens with calls, the line the finding names, and the first message the bridge must precede. */
const sessions: Array<{ name: string; jsonl: string; line: number }> = [
  { name: 'pi: the first entry is the call turn', jsonl: new Session().calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').reply().user('More.').reply().jsonl(), line: 2 },
  {
    name: 'pi: a model change comes before the call turn',
    jsonl: new Session().entry({ type: 'model_change', provider: 'google', modelId: 'gemini-2.5-pro' }).calls(call('Ab3dE6gH9')).result('Ab3dE6gH9').reply().jsonl(),
    line: 3,
  },
  { name: 'pi: a call turn with text and two calls', jsonl: new Session().assistant([text('Both.'), call('c1'), call('c2')], 'toolUse').result('c1').result('c2').reply().jsonl(), line: 2 },
  { name: 'Claude Code: a response written over a text line and a call line', jsonl: claudeCode(), line: 3 },
  { name: 'Codex: the call after the header and turn context', jsonl: codex(false), line: 3 },
  { name: 'Codex: the same, paginated (every line numbered)', jsonl: codex(true), line: 3 },
];

describe('a history that opens with a call gets a user message before it (Gemini)', () => {
  for (const { name, jsonl, line } of sessions) {
    describe(name, () => {
      it('is reported with Gemini’s text, and not without a provider that needs it', async () => {
        const found = (await scanFor(jsonl, 'gemini')).filter((finding) => finding.rule === 'call-turn-order');
        expect(found.map((finding) => [finding.line, finding.message])).toEqual([[line, expect.stringMatching(/opens the history/)]]);
        expect(found[0]!.providerError).toMatch(OPENS);
        expect(contractProblems(jsonl, 'gemini').filter((problem) => problem.endsWith('call turn after nothing'))).toHaveLength(1);
        for (const provider of ['anthropic', 'mistral', undefined] as const) expect((await scanFor(jsonl, provider)).filter((f) => f.rule === 'call-turn-order'), String(provider)).toEqual([]);
      });

      for (const mode of ['discard', 'synthetic'] as const) {
        it(`repair --provider gemini --mode ${mode} passes the independent check; user text untouched; a second run changes nothing`, async () => {
          const once = await repairFor(jsonl, 'gemini', mode);
          expect(contractProblems(once, 'gemini')).toEqual([]);
          expect(userTexts(once)).toEqual(['(continue)', ...userTexts(jsonl)]);
          expect((await scanFor(once, 'gemini')).filter((finding) => finding.severity === 'error')).toEqual([]);
          // Valid for the file's own agent as well: nothing its scan would report.
          expect((await scanFor(once)).filter((finding) => finding.severity === 'error')).toEqual([]);
          expect(await repairFor(once, 'gemini', mode)).toBe(once);
          // Every line that was there is still there, byte for byte, except the call turn's link to its new parent (and line numbers).
          const unnumbered = (value: string) => value.split('\n').map((line) => line.replace(/"ordinal":\d+,/, ''));
          const kept = unnumbered(once);
          const changed = unnumbered(jsonl).filter((value) => !kept.includes(value));
          expect(changed.length).toBeLessThanOrEqual(1);
        });
      }
    });
  }

  it('pi: the bridge goes after the header, is a root, and the call turn hangs on it', async () => {
    const once = (await repairFor(sessions[0]!.jsonl, 'gemini', 'discard')).trim().split('\n').map((value) => JSON.parse(value));
    expect(once[0].type).toBe('session');
    expect(once[1]).toMatchObject({ type: 'message', parentId: null, message: { role: 'user', content: [{ type: 'text', text: '(continue)' }] } });
    expect(once[2].parentId).toBe(once[1].id);
    expect(once[2].message.role).toBe('assistant');
  });

  it('Claude Code: the bridge is a root user line in the session’s envelope; the response’s first line hangs on it', async () => {
    const once = (await repairFor(claudeCode(), 'gemini', 'discard')).trim().split('\n').map((value) => JSON.parse(value));
    expect(once[0].type).toBe('summary');
    expect(once[1]).toMatchObject({ parentUuid: null, sessionId: 's1', cwd: '/workspace/demo', type: 'user', message: { role: 'user', content: [{ type: 'text', text: '(continue)' }] } });
    expect(once[2]).toMatchObject({ uuid: 'a1', parentUuid: once[1].uuid });
    expect(once[3]).toMatchObject({ uuid: 'a2', parentUuid: 'a1' });
  });

  it('Codex, paginated: the bridge comes right before the call and every line is numbered again in order', async () => {
    const once = (await repairFor(codex(true), 'gemini', 'synthetic')).trim().split('\n').map((value) => JSON.parse(value));
    expect(once.map((value) => value.ordinal)).toEqual(once.map((_value, i) => i));
    expect(once.map((value) => value.payload.type)).toEqual([undefined, undefined, 'message', 'function_call', 'token_count', 'function_call_output', 'message']);
    expect(once[2].payload).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '(continue)' }] });
  });

  for (const [name, line] of [['Gemini line', gemini(false)], ['Gemini line holding only the call and its response', gemini(true)], ['OpenAI Chat line judged for Gemini', chat]] as const) {
    it(`a request file: ${name} gets the bridge first in its list, in the line’s own shape`, async () => {
      for (const mode of ['discard', 'synthetic'] as const) {
        expect((await scanFor(line, 'gemini')).map((finding) => `${finding.rule} ${finding.pointer}`)).toContain(`call-turn-order ${line.startsWith('{"contents"') ? '/contents/0' : '/messages/0'}`);
        const once = await repairFor(line, 'gemini', mode);
        const value = JSON.parse(once);
        const list = value.contents ?? value.messages;
        expect(list[0]).toEqual(value.contents !== undefined ? { role: 'user', parts: [{ text: '(continue)' }] } : { role: 'user', content: '(continue)' });
        expect(list.slice(1)).toEqual(JSON.parse(line).contents ?? JSON.parse(line).messages);
        expect(pairingProblems(value)).toEqual([]);
        expect((await scanFor(once, 'gemini')).filter((finding) => finding.severity === 'error')).toEqual([]);
        expect(await repairFor(once, 'gemini', mode)).toBe(once);
      }
    });
  }

  it('a Codex response that opens the history with reasoning before its call gets the bridge before the reasoning', async () => {
    resetClock();
    const lines = rollout([meta(), reasoning(), codexCall('function', 'call_a'), output('function', 'call_a'), assistant('Done.')]);
    // For Gemini the reasoning is foreign and goes too; the bridge then stands right before the call.
    const once = (await repairFor(lines, 'gemini', 'discard')).trim().split('\n').map((value) => JSON.parse(value));
    expect(once.map((value) => value.payload.type ?? value.type)).toEqual(['session_meta', 'message', 'function_call', 'function_call_output', 'message']);
    expect(once[1].payload.role).toBe('user');
  });
});
