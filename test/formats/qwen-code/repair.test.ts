import { describe, expect, it } from 'vitest';
import { repairText } from '../../helpers/repair-tester.js';
import { QwenSession } from './session.js';

describe('Qwen Code repair writes Qwen Code’s own shapes', () => {
  it('synthetic: the failed-call tool_result record Qwen Code writes (createErrorResponse), in its envelope and key order', async () => {
    const session = new QwenSession();
    session.user('read a.txt');
    session.calls(['call_1'], 'read_file');
    session.user('still there?');
    const { lines } = await repairText(session.text(), 'synthetic');
    const added = lines[2]!;
    expect(Object.keys(added)).toEqual(['uuid', 'parentUuid', 'sessionId', 'timestamp', 'type', 'provenance', 'cwd', 'version', 'message', 'toolCallResult']);
    expect(added).toMatchObject({ parentUuid: lines[1]!.uuid, type: 'tool_result', provenance: 'tool_result', sessionId: lines[1]!.sessionId, timestamp: lines[1]!.timestamp });
    expect(added.message.parts).toEqual([{ functionResponse: { id: 'call_1', name: 'read_file', response: { error: expect.stringContaining('interrupted') } } }]);
    expect(added.toolCallResult).toMatchObject({ callId: 'call_1', status: 'error' });
    // The prompt after it now hangs off the result, so the chain goes through it.
    expect(lines[3]!.parentUuid).toBe(added.uuid);
  });

  it('discard: drops the unanswered call part and keeps the rest of the model turn', async () => {
    const session = new QwenSession();
    session.user('read a.txt');
    session.answer('Reading it.');
    const turn = session.records[1]!;
    (turn.message as { parts: unknown[] }).parts.push({ functionCall: { id: 'call_1', name: 'read_file', args: {} } });
    session.user('still there?');
    const input = session.text();
    const { output, lines } = await repairText(input, 'discard');
    expect(lines[1]!.message.parts).toEqual([{ text: 'Reading it.' }]);
    const [first, , third] = input.split('\n');
    expect(output.split('\n')[0]).toBe(first);
    expect(output.split('\n')[2]).toBe(third);
  });

  it('a blank prompt gets a text part; a record after a gap is re-linked to the record before it', async () => {
    const session = new QwenSession();
    session.user('hello');
    session.answer('hi');
    session.user('   ', 'ffffffff-0000-4000-8000-000000000000');
    session.answer('ok');
    const { lines } = await repairText(session.text());
    expect(lines[2]!.parentUuid).toBe(lines[1]!.uuid);
    expect(lines[2]!.message.parts).toEqual([{ text: '(continue)' }]);
  });
});
