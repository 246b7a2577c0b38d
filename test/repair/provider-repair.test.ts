import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairFor } from '../helpers/provider-repair.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-id.js';
import { contractProblems, userTexts } from '../helpers/provider-check.js';
import { call, Session, text } from '../helpers/session.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const kimi = { api: 'openai-completions', provider: 'moonshotai', model: 'kimi-k2' };
const openai = { api: 'openai-responses', provider: 'openai', model: 'gpt-5.2' };
const LONG = `toolu_01${'Q'.repeat(62)}`;

/** A pi session that switched models: Kimi's ids, 57-character ids, a result named after another tool, a blank text block, OpenAI's signed reasoning mid-way. */
const mixed = new Session()
  .user('Read the notes, then the plan.')
  .assistant([text('Reading.'), call('functions.read:0'), call('functions.read:1', 'read', { path: 'plan.md' })], 'toolUse', { message: kimi })
  .result('functions.read:0')
  .result('functions.read:1', 'write')
  .assistant([{ type: 'thinking', thinking: '', thinkingSignature: '{"type":"reasoning","id":"rs_9","encrypted_content":"gAAAA"}' }, text('Both read.'), text('')], 'stop', { message: openai })
  .user('Now list the folder.')
  .calls(call(LONG, 'exec', { command: 'ls' }))
  .result(LONG, 'exec')
  .reply('Three files.')
  .jsonl();

/** Codex's numbered rollout (nothing compacted: every call is replayed) with call ids no provider but Gemini takes (foreign characters, 76 long). */
const codexLongIds = fixture('codex/healthy-paginated.jsonl').replace(/"call_id":"([^"]+)"/g, (_all, id: string) => `"call_id":"functions.${id}:0-${'x'.repeat(Math.max(0, 60 - id.length))}"`);

/** Mistral wants an assistant message between results and a user message; Gemini a user (or result) turn before a call turn. */
const turnOrder = new Session()
  .user()
  .reply('Let me think about it.')
  .calls(call('Ab3dE6gH9'))
  .result('Ab3dE6gH9')
  .user('Stop, read the plan instead.')
  .calls(call('Zy8xW7vU6', 'read', { path: 'plan.md' }))
  .result('Zy8xW7vU6')
  .reply()
  .jsonl();

/** The same in Claude Code's lines: a text reply and a call as two responses, then a prompt right after the result. */
function claudeCodeTurnOrder(): string {
  const base = { sessionId: 's1', cwd: '/workspace/demo', version: '2.1.19', userType: 'external', isSidechain: false };
  const line = (uuid: string, parentUuid: string | null, type: string, message: object) => JSON.stringify({ parentUuid, ...base, type, message, uuid, timestamp: '2026-03-02T09:00:00.000Z' });
  return [
    line('u1', null, 'user', { role: 'user', content: 'Tidy the notes.' }),
    line('a1', 'u1', 'assistant', { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Looking.' }] }),
    line('a2', 'a1', 'assistant', { id: 'msg_2', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'Read', input: { file_path: 'notes.md' } }] }),
    line('r1', 'a2', 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'ok' }] }),
    line('u2', 'r1', 'user', { role: 'user', content: 'Never mind.' }),
    line('a3', 'u2', 'assistant', { id: 'msg_3', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Stopped.' }] }),
  ].map((text) => `${text}\n`).join('');
}

const sessions: Array<[string, string, readonly ProviderId[]]> = [
  ['pi: healthy fixture (three providers)', fixture('pi/healthy.jsonl'), PROVIDER_IDS],
  ['pi: mixed-model session', mixed, PROVIDER_IDS],
  ['pi: turn order', turnOrder, PROVIDER_IDS],
  ['pi: a final reply that ends in a newline', new Session().user().reply('Done.\n').jsonl(), PROVIDER_IDS],
  ['Claude Code: healthy fixture', fixture('claude-code/healthy.jsonl'), PROVIDER_IDS],
  ['Claude Code: turn order', claudeCodeTurnOrder(), PROVIDER_IDS],
  ['Codex: healthy fixture', fixture('codex/healthy.jsonl'), PROVIDER_IDS],
  ['Codex: foreign call ids', codexLongIds, PROVIDER_IDS],
  ['Codex: replayed encrypted reasoning (no compaction)', fixture('codex/missing-tool-result.jsonl'), PROVIDER_IDS],
];

describe('repair --provider X passes an independent check of X', () => {
  it('the generated sessions break every provider’s contract before repair', () => {
    for (const provider of PROVIDER_IDS) expect(contractProblems(mixed, provider), provider).not.toEqual([]);
    expect(contractProblems(turnOrder, 'mistral')).toEqual(['line 6: user right after a tool message']);
    expect(contractProblems(turnOrder, 'gemini')).toEqual(['line 4: call turn after assistant']);
    expect(contractProblems(new Session().user().reply('Done.\n').jsonl(), 'anthropic')).toEqual(['line 3: final assistant text ends in whitespace']);
    expect(contractProblems(claudeCodeTurnOrder(), 'gemini')).toEqual(['line 3: call turn after assistant']);
    expect(contractProblems(claudeCodeTurnOrder(), 'mistral')).toEqual(['line 3: call id toolu_01A refused', 'line 5: user right after a tool message']);
    for (const provider of PROVIDER_IDS.filter((p) => p !== 'gemini')) expect(contractProblems(codexLongIds, provider), provider).not.toEqual([]);
  });

  for (const [name, input, providers] of sessions) {
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${name}, ${mode}`, async () => {
        for (const provider of providers) {
          const once = await repairFor(input, provider, mode);
          expect(contractProblems(once, provider), provider).toEqual([]);
          // A bridge adds a user message of its own ("(continue)"); every user message there was stays as it was.
          expect(userTexts(once).filter((text) => text !== '(continue)'), provider).toEqual(userTexts(input));
          expect(await repairFor(once, provider, mode), `${provider}: a second run changes nothing`).toBe(once);
        }
      });
    }
  }

  it('ids are rewritten deterministically, call and result alike', async () => {
    const first = await repairFor(mixed, 'mistral', 'discard');
    expect(await repairFor(mixed, 'mistral', 'discard')).toBe(first);
    const ids = [...first.matchAll(/"(?:id|toolCallId)":"([^"]+)"/g)].map((m) => m[1]!).filter((id) => /^[a-zA-Z0-9]{9}$/.test(id));
    expect(new Set(ids).size).toBe(3);
    expect(ids.length).toBe(6);
  });
});
