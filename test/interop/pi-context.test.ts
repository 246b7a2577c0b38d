import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSessionContext, migrateSessionEntries, parseSessionEntries, type SessionEntry } from '@mariozechner/pi-coding-agent';
import { loadPiSession, piContextCheck } from './pi-context.js';
import { call, Session } from '../helpers/session.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'pi');
const CLEAN_FIXTURES = ['healthy.jsonl', 'v1-legacy.jsonl'];

// ---------------------------------------------------------------------------------------
// Hand-made v3 transcripts (shapes from shared/reference/openclaw.md §2 and §4)

const CALL_ID = 'toolu_01J5mJ7bYARqM49hQjP35cdb';
const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

const header = {
  type: 'session',
  version: 3,
  id: '7c1e0f52-9a4d-4b8e-b1f3-2d5e8a6c9f10',
  timestamp: '2026-03-02T09:14:03.118Z',
  cwd: '/home/alice/.openclaw/workspace',
};

let clock = 0;
function entry(id: string, parentId: string | null, message: Record<string, unknown>) {
  clock += 1;
  return {
    type: 'message',
    id,
    parentId,
    timestamp: new Date(Date.UTC(2026, 2, 2, 9, 15, clock)).toISOString(),
    message: { ...message, timestamp: 1772442900000 + clock },
  };
}
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistantText = (text: string) => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage,
  stopReason: 'stop',
});
const assistantCall = (id: string) => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me read the file.' },
    { type: 'toolCall', id, name: 'read', arguments: { path: '~/notes/todo.md' } },
  ],
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage,
  stopReason: 'toolUse',
});
const toolResult = (toolCallId: string) => ({
  role: 'toolResult',
  toolCallId,
  toolName: 'read',
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
});
const jsonl = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const healthy = jsonl(
  header,
  entry('a0000001', null, user('What is in ~/notes/todo.md?')),
  entry('a0000002', 'a0000001', assistantCall(CALL_ID)),
  entry('a0000003', 'a0000002', toolResult(CALL_ID)),
  entry('a0000004', 'a0000003', assistantText('It says ok.')),
);

const missingResult = jsonl(
  header,
  entry('b0000001', null, user('What is in ~/notes/todo.md?')),
  entry('b0000002', 'b0000001', assistantCall(CALL_ID)),
  // the toolResult line is missing
  entry('b0000003', 'b0000002', user('Hello?')),
  entry('b0000004', 'b0000003', assistantText('Sorry, the read did not finish.')),
);

const ORPHAN_ID = 'toolu_01NoSuchCallAnywhere0000';
const orphanResult = jsonl(
  header,
  entry('c0000001', null, user('What is in ~/notes/todo.md?')),
  entry('c0000002', 'c0000001', assistantCall(CALL_ID)),
  entry('c0000003', 'c0000002', toolResult(CALL_ID)),
  entry('c0000004', 'c0000003', toolResult(ORPHAN_ID)),
  entry('c0000005', 'c0000004', assistantText('Done.')),
);

// ---------------------------------------------------------------------------------------

describe('piContextCheck (pi-coding-agent SessionManager + buildSessionContext)', () => {
  it('healthy v3 session: all calls answered, no orphans', async () => {
    expect(await piContextCheck(healthy)).toEqual({
      messages: 4,
      unansweredCalls: [],
      orphanResults: [],
      duplicateCallIds: [],
      invalidToolNames: [],
      roles: ['user', 'assistant', 'toolResult', 'assistant'],
    });
  });

  it('reports call ids used twice and names providers reject', async () => {
    const jsonl = new Session().user().calls(call('k:0', 'read')).result('k:0').calls(call('k:0', 'bad name')).result('k:0').reply().jsonl();
    const check = await piContextCheck(jsonl);
    expect(check.duplicateCallIds).toEqual(['k:0']);
    expect(check.invalidToolNames).toEqual(['bad name']);
  });

  it('missing toolResult followed by a user message: the call is unanswered', async () => {
    const check = await piContextCheck(missingResult);
    expect(check.unansweredCalls).toEqual([CALL_ID]);
    expect(check.orphanResults).toEqual([]);
    expect(check.roles).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('a result whose call id matches nothing is an orphan', async () => {
    const check = await piContextCheck(orphanResult);
    expect(check.orphanResults).toEqual([ORPHAN_ID]);
    expect(check.unansweredCalls).toEqual([]);
    expect(check.messages).toBe(5);
  });

  it('a result after an intervening user message does not count as an answer', async () => {
    const displaced = jsonl(
      header,
      entry('d0000001', null, user('Read it.')),
      entry('d0000002', 'd0000001', assistantCall(CALL_ID)),
      entry('d0000003', 'd0000002', user('Still there?')),
      entry('d0000004', 'd0000003', toolResult(CALL_ID)),
    );
    const check = await piContextCheck(displaced);
    expect(check.unansweredCalls).toEqual([CALL_ID]);
    expect(check.orphanResults).toEqual([CALL_ID]);
  });

  it('a call still unanswered at the end of the context is reported', async () => {
    const trailing = jsonl(header, entry('e0000001', null, user('Read it.')), entry('e0000002', 'e0000001', assistantCall(CALL_ID)));
    expect((await piContextCheck(trailing)).unansweredCalls).toEqual([CALL_ID]);
  });

  it('only the leaf path counts: a broken abandoned branch does not show up', async () => {
    const branched = jsonl(
      header,
      entry('f0000001', null, user('Read it.')),
      entry('f0000002', 'f0000001', assistantCall('toolu_abandoned')), // no result, branch left
      entry('f0000003', 'f0000001', assistantCall(CALL_ID)),
      entry('f0000004', 'f0000003', toolResult(CALL_ID)),
      entry('f0000005', 'f0000004', assistantText('ok')),
    );
    const check = await piContextCheck(branched);
    expect(check).toMatchObject({ messages: 4, unansweredCalls: [], orphanResults: [] });
  });

  it('a corrupt header makes pi discard the whole transcript (empty context)', async () => {
    const broken = healthy.replace('{"type":"session"', '{"type":"sessio"');
    const loaded = await loadPiSession(broken);
    expect(loaded.discarded).toBe(true);
    expect(loaded.context.messages).toEqual([]);
    expect(await piContextCheck(broken)).toEqual({ messages: 0, unansweredCalls: [], orphanResults: [], duplicateCallIds: [], invalidToolNames: [], roles: [] });
  });

  it('a parentId cycle (pi loops forever) fails with a timeout instead of hanging the run', async () => {
    const text = readFileSync(join(FIXTURES, 'parent-cycle.jsonl'), 'utf8');
    await expect(piContextCheck(text, { timeoutMs: 1500 })).rejects.toThrow(/did not finish loading/);
    // the worker is replaced afterwards
    expect((await piContextCheck(healthy)).unansweredCalls).toEqual([]);
  });
});

describe.each(CLEAN_FIXTURES)('fixtures/pi/%s through pi', (name) => {
  const text = readFileSync(join(FIXTURES, name), 'utf8');

  it('builds a non-empty context with every call answered and no orphan results', async () => {
    const check = await piContextCheck(text);
    expect(check.messages).toBeGreaterThan(0);
    expect(check.roles).toContain('assistant');
    expect(check.unansweredCalls).toEqual([]);
    expect(check.orphanResults).toEqual([]);
  });

  it('agrees with the pure parseSessionEntries + migrateSessionEntries + buildSessionContext path', async () => {
    const loaded = await loadPiSession(text);
    expect(loaded.discarded).toBe(false);
    const entries = parseSessionEntries(text);
    migrateSessionEntries(entries);
    const fromFunctions = buildSessionContext(entries.filter((e): e is SessionEntry => e.type !== 'session'));
    // v1 migration assigns random ids, so compare roles/messages rather than entry ids.
    expect(fromFunctions.messages).toEqual(loaded.context.messages);
    expect(loaded.header?.version).toBe(3);
  });
});

describe('migration and pi-native shapes', () => {
  it('v1 files are migrated to v3 in place (ids + linear parentIds) and the file is rewritten', async () => {
    const text = readFileSync(join(FIXTURES, 'v1-legacy.jsonl'), 'utf8');
    const loaded = await loadPiSession(text);
    expect(loaded.fileAfterLoad).not.toBe(text);
    expect(loaded.entries.every((e) => typeof e.id === 'string' && e.id.length > 0)).toBe(true);
    expect(loaded.entries[0].parentId).toBeNull();
    for (let i = 1; i < loaded.entries.length; i++) expect(loaded.entries[i].parentId).toBe(loaded.entries[i - 1].id);
    expect(loaded.leafId).toBe(loaded.entries.at(-1)?.id);
  });

  it('v3 files are not rewritten', async () => {
    expect((await loadPiSession(healthy)).fileAfterLoad).toBe(healthy);
  });

  it('strict pi shapes: legacy toolUse/functionCall blocks and toolUseId results are invisible to pi-ai', async () => {
    // legacy-shapes.jsonl carries OpenClaw-accepted legacy shapes on its replay path; pi-ai itself
    // only pairs `toolCall` blocks with `toolResult.toolCallId`.
    const text = readFileSync(join(FIXTURES, 'legacy-shapes.jsonl'), 'utf8');
    const strict = await piContextCheck(text, { aliases: false });
    expect(strict.unansweredCalls).toEqual([]);
    expect(strict.orphanResults).toEqual(['(no id)', 'read_1773130803757_0']);
    expect(await piContextCheck(healthy, { aliases: false })).toMatchObject({ unansweredCalls: [], orphanResults: [] });
  });
});
