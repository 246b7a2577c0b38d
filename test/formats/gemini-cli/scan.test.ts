import { describe, expect, it } from 'vitest';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { answer, calling, context, info, jsonl, metadata, resetClock, responses, rewind, rewritten, touched, user, type Line } from './session.js';

const COUNT = 'Gemini: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

/** Findings as `line rule pointer`. */
async function findings(lines: Line[]): Promise<string[]> {
  return (await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.pointer ?? ''}`.trim());
}

const LS = { id: 'list_directory-1-a', name: 'list_directory' };
const READ = { id: 'read_file-2-b', name: 'read_file' };

function opening(): Line[] {
  resetClock();
  return [metadata(), rewritten([context()]), user('u1', 'list the files'), touched()];
}

describe('Gemini CLI sessions, replayed as the client replays them', () => {
  it('reads a healthy session: a call recorded while it runs, then again with its result, then the answer', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS }]), touched(), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'There is a.txt.'), touched()];
    const found = await scanText(jsonl(lines));
    expect(found).toEqual([]);
  });

  it('takes the last copy of a message: a call written again without its result is unanswered, at that copy', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS, output: 'a.txt' }]), calling('m1', [{ ...LS }]), user('u2', 'and?')];
    const found = await scanText(jsonl(lines));
    expect(found.map((f) => [f.line, f.rule, f.pointer, f.severity, f.providerError])).toEqual([[6, 'kept-history-pairing', '/toolCalls/0', 'error', COUNT]]);
  });

  it('reports the call a kill left without its result among parallel calls, in Gemini’s words', async () => {
    const lines = [...opening(), calling('m1', [{ ...READ, output: 'text' }, { ...LS }])];
    expect(await findings(lines)).toEqual(['5 kept-history-pairing /toolCalls/1', '5 unanswered-final-turn']);
  });

  it('keeps a copy in the place of the first one: a later copy does not move the message after the ones written in between', async () => {
    // The responses answer the calls of m1, whose last copy (line 7) still stands before them.
    const lines = [...opening(), calling('m1', [{ ...LS }]), responses('u2', [{ ...LS, output: 'a.txt' }]), calling('m1', [{ ...LS }])];
    // The history ends on those responses: the client closes it with a turn of its own.
    expect(await findings(lines)).toEqual(['6 unanswered-final-turn']);
  });

  it('replaces the list with $set.messages, and points into it', async () => {
    const broken = [...opening(), calling('m1', [{ ...LS }]), user('u2', 'next')];
    expect(await findings(broken)).toEqual(['5 kept-history-pairing /toolCalls/0']);
    resetClock();
    const replaced = [...broken, rewritten([context(), user('u1', 'list the files'), calling('m1', [{ ...LS, output: 'a.txt' }])])];
    expect(await findings(replaced)).toEqual(['7 unanswered-final-turn']);
    const stillBroken = [...broken, rewritten([context(), user('u1', 'list the files'), calling('m1', [{ ...LS }, { ...READ, output: 'x' }])])];
    expect(await findings(stillBroken)).toEqual(['7 kept-history-pairing /$set/messages/2/toolCalls/0', '7 unanswered-final-turn']);
  });

  it('takes back a message and everything after it on $rewindTo', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS }]), rewind('m1'), answer('m2', 'Let us start again.')];
    expect(await findings(lines)).toEqual([]);
  });

  it('skips what the client never sends: info, error and warning messages, commands and its own context', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS }]), info('i1', 'Request cancelled.'), user('u2', '/chat save before'), responses('u3', [{ ...LS, output: 'a.txt' }])];
    expect(await findings(lines)).toEqual(['8 unanswered-final-turn']);
  });

  it('reports each response the client would send twice: the result it records with the call and the same response written as a user message', async () => {
    const lines = [...opening(), calling('m1', [{ ...LS, output: 'a.txt' }, { ...READ, output: 'text' }]), responses('u2', [{ ...LS, output: 'a.txt' }, { ...READ, output: 'text' }]), answer('m2', 'done')];
    const found = await scanText(jsonl(lines));
    expect(found.map((f) => `${f.line} ${f.pointer} ${f.message}`)).toEqual([
      '6 /content/0 Result for list_directory-1-a answers a call that was already answered in the history the client replays.',
      '6 /content/1 Result for read_file-2-b answers a call that was already answered in the history the client replays.',
    ]);
    expect(new Set(found.map((f) => f.providerError))).toEqual(new Set([COUNT]));
  });

  it('reports responses after no call turn as out of place', async () => {
    const lines = [...opening(), answer('m1', 'Nothing to run.'), responses('u2', [{ ...LS, output: 'a.txt' }]), answer('m2', 'Done.')];
    const found = await scanText(jsonl(lines));
    expect(found.map((f) => `${f.line} ${f.pointer} ${f.providerError}`)).toEqual(['6 /content/0 Gemini: Please ensure that function response turn comes immediately after a function call turn.']);
  });

  it('leaves out a run of model turns one of which has a part of no text, as the client does: their responses then follow no call turn', async () => {
    const empty = { ...calling('m1', [{ ...LS, output: 'a.txt' }]), content: [{ text: '' }] };
    const found = await scanText(jsonl([...opening(), empty, answer('m2', 'done')]));
    expect(found.map((f) => `${f.line} ${f.rule} ${f.pointer}`)).toEqual(['5 kept-history-pairing /toolCalls/0/result/0']);
    expect(found[0]!.providerError).toBe('Gemini: Please ensure that function response turn comes immediately after a function call turn.');
    // Repair drops the responses the client sends out of place; the turn it leaves out stays as written.
    const { output, lines } = await repairText(jsonl([...opening(), empty, answer('m2', 'done')]));
    expect(lines[4]).toMatchObject({ content: [{ text: '' }], toolCalls: [{ result: [] }] });
    expect(await scanText(output)).toEqual([]);
    // The same run with a text before the calls is sent whole.
    expect(await findings([...opening(), answer('m0', 'Let me look.'), calling('m1', [{ ...LS, output: 'a.txt' }]), answer('m2', 'done')])).toEqual([]);
    expect(await findings([...opening(), { ...answer('m0', ''), content: [{ text: '' }] }, calling('m1', [{ ...LS, output: 'a.txt' }])])).toEqual(['6 kept-history-pairing /toolCalls/0/result/0', '6 unanswered-final-turn']);
  });

  it('leaves out a model message of nothing but thoughts: the turns around it merge', async () => {
    const thinking = { ...answer('m0', ''), thoughts: [{ subject: 'Plan', description: 'List first.' }] };
    const lines = [...opening(), calling('m1', [{ ...LS, output: 'a.txt' }]), thinking, responses('u2', [{ ...LS, output: 'a.txt' }])];
    // Without the thoughts' turn, the second response joins the first and answers a call already answered.
    expect(await findings(lines)).toEqual(['7 kept-history-pairing /content/0', '7 unanswered-final-turn']);
    expect((await scanText(jsonl(lines)))[0]!.message).toContain('already answered');
  });

  it('pairs a response without an id with the call of its name, as the client does', async () => {
    const call = calling('m1', [{ ...LS }]);
    delete call.toolCalls[0].id;
    const lines = [...opening(), call, { ...responses('u2', [{ ...LS, output: 'a.txt' }]), content: [{ functionResponse: { name: 'list_directory', response: { output: 'a.txt' } } }] }];
    expect(await findings(lines)).toEqual(['6 unanswered-final-turn']);
  });
});
