import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { answer, calling, context, jsonl, metadata, resetClock, responses, rewind, rewritten, touched, user, type Line } from './session.js';

const MODES: RepairMode[] = ['discard', 'synthetic'];
const LS = { id: 'list_directory-1-a', name: 'list_directory' };
const READ = { id: 'read_file-2-b', name: 'read_file' };

function opening(): Line[] {
  resetClock();
  return [metadata(), rewritten([context()]), user('u1', 'list the files'), touched()];
}

/** Repairs, checks that every line but `changed` is byte-identical, that nothing is left to find and that a second run changes nothing. */
async function repaired(lines: Line[], mode: RepairMode, changed: number[]): Promise<Line[]> {
  const text = jsonl(lines);
  const { output, lines: parsed } = await repairText(text, mode);
  const before = text.split('\n');
  const after = output.split('\n');
  expect(after.length, mode).toBe(before.length);
  expect(before.flatMap((line, i) => (line === after[i] ? [] : [i + 1])), mode).toEqual(changed);
  expect(await scanText(output), mode).toEqual([]);
  expect((await repairText(output, mode)).output, mode).toBe(output);
  return parsed;
}

describe('Gemini CLI repair, in the winning copy of each message', () => {
  it('discard drops the call a kill left unanswered from its message, and keeps the answered one', async () => {
    const lines = [...opening(), calling('m1', [{ ...READ, output: 'text' }, { ...LS }]), touched(), user('u2', 'go on')];
    const out = await repaired(lines, 'discard', [5]);
    expect(out[4]!.toolCalls.map((call: Line) => call.id)).toEqual([READ.id]);
  });

  it('synthetic records the result the client itself records for a cancelled call', async () => {
    const lines = [...opening(), calling('m1', [{ ...READ, output: 'text' }, { ...LS }]), touched(), user('u2', 'go on')];
    const out = await repaired(lines, 'synthetic', [5]);
    const call = out[4]!.toolCalls[1];
    expect(call.status).toBe('cancelled');
    expect(call.result).toEqual([{ functionResponse: { id: LS.id, name: LS.name, response: { error: '[Operation Cancelled] The session ended before the tool finished; result written by transcript-doctor.' } } }]);
  });

  it('discard leaves a message whose every call was unanswered empty, so the client sends nothing of it', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS }]), user('u2', 'go on')];
    const out = await repaired(lines, 'discard', [5]);
    expect(out[4]).not.toHaveProperty('toolCalls');
    expect(out[4]!.content).toBe('');
  });

  it('drops the second copy of each response, the one written as a user message, in both modes', async () => {
    for (const mode of MODES) {
      const lines = [...opening(), calling('m1', [{ ...LS, output: 'a.txt' }, { ...READ, output: 'text' }]), responses('u2', [{ ...LS, output: 'a.txt' }, { ...READ, output: 'text' }]), answer('m2', 'done')];
      const out = await repaired(lines, mode, [6]);
      expect(out[5], mode).toMatchObject({ id: 'u2', type: 'user', content: [] });
    }
  });

  it('mends a $set.messages list in place: a duplicate response message goes from the list, with the earlier copy under its id it shadowed', async () => {
    const calls = [{ functionCall: { id: LS.id, name: LS.name, args: {} } }];
    const response = [{ functionResponse: { id: LS.id, name: LS.name, response: { output: 'a.txt' } } }];
    // As a resume writes it back: the calls as content parts, their result kept on the call record too, and the response message twice under one id.
    const model = { id: 'm1', type: 'gemini', content: calls, toolCalls: [{ id: LS.id, name: LS.name, args: {}, result: response, status: 'success' }] };
    const list = [context(), user('u1', 'list'), model, { id: 'm1_response', type: 'user', content: response }, { id: 'm1_response', type: 'user', content: response }, answer('m2', 'done')];
    resetClock();
    const lines = [metadata(), rewritten(list)];
    for (const mode of MODES) {
      const out = await repaired(lines, mode, [2]);
      expect(out[1]!.$set.messages.map((message: Line) => message.id), mode).toEqual([list[0]!.id, 'u1', 'm1', 'm2']);
    }
  });

  it('drops a rewind to a message the history does not hold, so the history before it is sent again', async () => {
    const lines = [...opening(), answer('m1', 'There are two files.'), rewind('gone'), user('u2', 'and?')];
    expect((await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule}`)).toEqual(['6 rewind-to-unknown-message']);
    const { output, report } = await repairText(jsonl(lines));
    expect(output).toBe(jsonl(lines.filter((_, i) => i !== 5)));
    expect(report.repair.counts.droppedLines).toBe(1);
    expect(await scanText(output)).toEqual([]);
  });

  it('takes the saved placeholder turn out: emptied on its own line, dropped from a list', async () => {
    const placeholder = '[The previous response was interrupted before it completed.]';
    const lines = [...opening(), answer('m1', placeholder), user('u2', 'Continue')];
    expect((await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule}`)).toEqual(['5 placeholder-turn']);
    for (const mode of MODES) expect((await repaired(lines, mode, [5]))[4]!.content, mode).toBe('');
    resetClock();
    const listed = [metadata(), rewritten([context(), user('u1', 'hi'), answer('m1', placeholder), user('u2', 'Continue')])];
    expect((await repaired(listed, 'discard', [2]))[1]!.$set.messages.map((message: Line) => message.id)).toEqual(['c0ffee00c0ffee00c0ffee00c0ffee00', 'u1', 'u2']);
  });
});
