import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { piFormat } from '../../src/formats/pi/index.js';
import { call, Session, text } from '../helpers/session.js';

async function load(jsonl: string) {
  const transcript = await loadTranscript(Readable.from([Buffer.from(jsonl)]));
  return { ...transcript, entries: transcript.entries.toArray() };
}

describe('pi format', () => {
  it('detects pi lines and nothing else', () => {
    expect(piFormat.detect({ type: 'session', id: 'x' })).toBe(true);
    expect(piFormat.detect({ type: 'message', message: { role: 'user' } })).toBe(true);
    expect(piFormat.detect({ type: 'user', message: { role: 'user' }, uuid: 'x' })).toBe(false);
    expect(piFormat.detect([1, 2])).toBe(false);
  });

  it('decodes a v3 session into neutral entries', async () => {
    const jsonl = new Session()
      .entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
      .user('hi')
      .calls(call('t1', 'read'), { type: 'toolUse', id: 't2', name: 'exec', input: {} }, { type: 'tool_call', id: 't3', name: 'x', arguments: {} })
      .result('t1')
      .message({ role: 'toolResult', toolUseId: 't2', toolName: 'exec', content: [], isError: false })
      .entry({ type: 'custom_message', customType: 'openclaw.runtime-context', content: 'x', display: false })
      .entry({ type: 'compaction', summary: 's', firstKeptEntryId: '00000002', tokensBefore: 5 })
      .jsonl();
    const { format, entries } = await load(jsonl);
    expect(format).toBe('pi');
    expect(entries.map((e) => [e.kind, e.role ?? '-', e.inContext])).toEqual([
      ['header', '-', false],
      ['state', '-', false],
      ['message', 'user', true],
      ['message', 'assistant', true],
      ['message', 'toolResult', true],
      ['message', 'toolResult', true],
      ['context', 'other', true],
      ['compaction', '-', true],
    ]);
    const assistant = entries[3]!;
    expect(assistant.outcome).toBe('toolUse');
    // Every dialect is a call; what canonicalize would change is recorded in words.
    expect(assistant.toolCalls!.map((c) => [c.id, c.name, c.pointer, c.changes ?? []])).toEqual([
      ['t1', 'read', '/message/content/1', []],
      ['t2', 'exec', '/message/content/2', ['"toolUse" block to "toolCall"', '"input" to "arguments"']],
      ['t3', 'x', '/message/content/3', ['"tool_call" block to "toolCall"']],
    ]);
    expect(entries[5]!.toolResults![0]!).toMatchObject({ callId: 't2', changes: ['"toolUseId" to "toolCallId"'] });
    expect(entries[7]!.firstKeptId).toBe('00000002');
    expect(entries[2]!.parentId).toBe('00000001');
  });

  it('recognises synthetic results and transcript-only assistants', async () => {
    const jsonl = new Session()
      .user()
      .calls(call('t1'))
      .synthetic('t1')
      .assistant([text('Sent')], 'stop', { message: { provider: 'openclaw', model: 'delivery-mirror' } })
      .jsonl();
    const { entries } = await load(jsonl);
    expect(entries[3]!.toolResults![0]!.synthetic).toBe(true);
    expect(entries[4]!).toMatchObject({ transcriptOnly: true, inContext: false });
  });

  it('links v1 entries in file order and maps firstKeptEntryIndex', async () => {
    const lines = [
      { type: 'session', id: 'old', timestamp: 't', cwd: '/w' },
      { type: 'message', timestamp: 't', message: { role: 'user', content: 'a' } },
      { type: 'message', timestamp: 't', message: { role: 'assistant', content: [text('b')], stopReason: 'stop' } },
      { type: 'compaction', timestamp: 't', summary: 's', firstKeptEntryIndex: 2, tokensBefore: 1 },
    ];
    const { entries } = await load(lines.map((l) => JSON.stringify(l) + '\n').join(''));
    expect(entries.slice(1).map((e) => [e.id, e.linksToPrevious])).toEqual([
      ['#1', true],
      ['#2', true],
      ['#3', true],
    ]);
    expect(entries[3]!.firstKeptId).toBe('#2');
  });

  it('flags v3 entries without parentId, but not v1 ones', async () => {
    const v3 = await load(new Session().user('x', { parent: false }).jsonl());
    expect(v3.entries[1]!.parentMissing).toBe(true);
  });

  it('reports unparseable lines as issues and keeps reading', async () => {
    const jsonl = new Session().user().jsonl() + '{"broken\n' + new Session(false).reply().jsonl();
    const transcript = await load(jsonl);
    expect(transcript.lineIssues).toEqual([{ kind: 'invalid-json', line: 3, detail: expect.any(String) }]);
    expect(transcript.entries.map((e) => e.line)).toEqual([1, 2, 4]);
  });

  it('leaves files of other formats undetected', async () => {
    // A structured log line: no format's line, nor one any format's lines resemble.
    const transcript = await load('{"level":"info","msg":"session started","pid":4242}\n');
    expect(transcript.format).toBeUndefined();
    expect(transcript.entries).toEqual([]);
    expect(transcript.parsedLines).toBe(1);
  });
});
