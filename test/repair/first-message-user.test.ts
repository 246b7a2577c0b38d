import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractProblems, userTexts } from '../helpers/provider-check.js';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { call, Session, text } from '../helpers/session.js';
import { assistant, jsonl as rollout, meta, resetClock, turnContext, user } from '../formats/codex/rollout.js';
import { pairingProblems } from '../formats/requests/contract.js';
import { runCli } from '../cli/run-cli.js';

/**
 * Bedrock Converse refuses a conversation whose first message is the assistant's, a plain reply
 * as much as a turn of calls (brc-first-user). Anthropic's own API takes it; no other provider
 * has the term. Repair for Bedrock puts the opening user bridge first.
 */

const TEXT = 'Bedrock Converse: A conversation must start with a user message. Try again with a conversation that starts with a user message.';

function claudeCode(): string {
  const base = { sessionId: 's1', cwd: '/workspace/demo', version: '2.1.19', userType: 'external', isSidechain: false };
  const line = (uuid: string, parentUuid: string | null, type: string, message: object) => JSON.stringify({ parentUuid, ...base, type, message, uuid, timestamp: '2026-03-02T09:00:00.000Z' });
  return [
    line('a1', null, 'assistant', { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Picking up where we left off.' }] }),
    line('u1', 'a1', 'user', { role: 'user', content: 'Go on.' }),
    line('a2', 'u1', 'assistant', { id: 'msg_2', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Done.' }] }),
  ].map((value) => `${value}\n`).join('');
}

function codex(): string {
  resetClock();
  return rollout([meta(), turnContext(), assistant('Picking up where we left off.'), user('Go on.'), assistant('Done.')]);
}

const sessions: Array<{ name: string; jsonl: string; line: number }> = [
  { name: 'pi: a reply first', jsonl: new Session().reply('Picking up.').user('Go on.').reply().jsonl(), line: 2 },
  { name: 'pi: a turn of calls first', jsonl: new Session().assistant([text('Reading.'), call('tooluse_1')], 'toolUse').result('tooluse_1').reply().jsonl(), line: 2 },
  { name: 'Claude Code: a root assistant line', jsonl: claudeCode(), line: 1 },
  { name: 'Codex: an assistant message after the header and turn context', jsonl: codex(), line: 3 },
];

describe('first-message-user: Bedrock wants a user message first', () => {
  for (const { name, jsonl, line } of sessions) {
    describe(name, () => {
      it('is reported for bedrock with its exact text, and for no other provider', async () => {
        const found = (await scanFor(jsonl, 'bedrock')).filter((finding) => finding.rule === 'first-message-user');
        expect(found.map((finding) => [finding.line, finding.providerError, finding.severity])).toEqual([[line, TEXT, 'error']]);
        expect(contractProblems(jsonl, 'bedrock').filter((problem) => problem.endsWith('history opens with the assistant'))).toHaveLength(1);
        for (const provider of ['anthropic', 'vertex', 'mistral', 'gemini', 'openai-chat', 'openai-responses', undefined] as const) {
          expect((await scanFor(jsonl, provider)).filter((finding) => finding.rule === 'first-message-user'), String(provider)).toEqual([]);
        }
      });

      for (const mode of ['discard', 'synthetic'] as const) {
        it(`repair --provider bedrock --mode ${mode} passes the independent check; user text untouched; a second run changes nothing`, async () => {
          const once = await repairFor(jsonl, 'bedrock', mode);
          expect(contractProblems(once, 'bedrock')).toEqual([]);
          expect(userTexts(once)).toEqual(['(continue)', ...userTexts(jsonl)]);
          expect((await scanFor(once, 'bedrock')).filter((finding) => finding.severity === 'error')).toEqual([]);
          expect((await scanFor(once)).filter((finding) => finding.severity === 'error')).toEqual([]);
          expect(await repairFor(once, 'bedrock', mode)).toBe(once);
          // Every line that was there is still there, but for the first message's link to its new parent.
          const kept = once.split('\n');
          expect(jsonl.split('\n').filter((value) => !kept.includes(value)).length).toBeLessThanOrEqual(1);
        });
      }
    });
  }

  it('the CLI exits 1 for --provider bedrock and 0 for anthropic', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-first-user-')), 'session.jsonl');
    writeFileSync(file, sessions[0]!.jsonl);
    const bedrock = await runCli(['scan', file, '--provider', 'bedrock']);
    expect(bedrock.code).toBe(1);
    expect(bedrock.stdout).toContain('A conversation must start with a user message.');
    expect((await runCli(['scan', file, '--provider', 'anthropic'])).code).toBe(0);
  });

  const chat = JSON.stringify({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Hi' }] }) + '\n';
  const anthropic = JSON.stringify({ system: 'Be brief.', messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, { role: 'user', content: 'Hi' }] }) + '\n';
  const responses = JSON.stringify({ input: [{ role: 'developer', content: 'Be brief.' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] }, { role: 'user', content: 'Hi' }] }) + '\n';
  const gemini = JSON.stringify({ contents: [{ role: 'model', parts: [{ text: 'Hello.' }] }, { role: 'user', parts: [{ text: 'Hi' }] }] }) + '\n';
  for (const [name, line, list, pointer, bridge] of [
    ['OpenAI chat, after its system message', chat, 'messages', '/messages/1', { role: 'user', content: '(continue)' }],
    ['Anthropic', anthropic, 'messages', '/messages/0', { role: 'user', content: [{ type: 'text', text: '(continue)' }] }],
    ['Responses, after its developer message', responses, 'input', '/input/1', undefined],
    ['Gemini', gemini, 'contents', '/contents/0', { role: 'user', parts: [{ text: '(continue)' }] }],
  ] as const) {
    it(`a request line (${name}) gets the bridge as its first turn, in its own shape`, async () => {
      expect((await scanFor(line, 'bedrock')).filter((finding) => finding.rule === 'first-message-user').map((finding) => [finding.pointer, finding.providerError])).toEqual([[pointer, TEXT]]);
      // Without --provider each line talks to its own shape's provider: none of them has the term.
      expect((await scanFor(line)).filter((finding) => finding.rule === 'first-message-user')).toEqual([]);
      for (const mode of ['discard', 'synthetic'] as const) {
        const once = await repairFor(line, 'bedrock', mode);
        const before = JSON.parse(line)[list] as unknown[];
        const after = JSON.parse(once)[list] as Array<Record<string, unknown>>;
        const at = pointer.endsWith('/1') ? 1 : 0;
        expect(after.slice(0, at)).toEqual(before.slice(0, at));
        if (bridge !== undefined) expect(after[at]).toEqual(bridge);
        else expect(after[at]).toMatchObject({ role: 'user' });
        expect(after.slice(at + 1)).toEqual(before.slice(at));
        expect(pairingProblems(JSON.parse(once))).toEqual([]);
        expect((await scanFor(once, 'bedrock')).filter((finding) => finding.severity === 'error')).toEqual([]);
        expect(await repairFor(once, 'bedrock', mode)).toBe(once);
      }
    });
  }
});
