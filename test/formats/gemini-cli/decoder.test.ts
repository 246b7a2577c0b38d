import { describe, expect, it } from 'vitest';
import { GeminiCliDecoder, type ReplayNote } from '../../../src/formats/gemini-cli/decode.js';
import { calling, metadata, resetClock, rewind, rewritten, touched, user, type Line } from './session.js';

const LS = { id: 'list_directory-1-a', name: 'list_directory' };

/** Each line's note, as the decoder leaves it once every line is read. */
function notes(lines: Line[]): Array<ReplayNote | undefined> {
  const decoder = new GeminiCliDecoder();
  const found = lines.map((line, i) => decoder.decode(line, i + 1, i).replayNote as ReplayNote | undefined);
  decoder.end();
  return found;
}

const summaries = (note: ReplayNote | undefined) => (note?.kind === 'message' ? [note.summary !== undefined] : note?.kind === 'list' ? note.messages.map((copy) => copy.summary !== undefined) : []);

// A summary is kept only while a later line may still send the copy: the replay reads no other.
describe('Gemini CLI decoder: which copies keep their summary', () => {
  it('drops a copy’s summary once the same message is written again', () => {
    resetClock();
    const found = notes([metadata(), user('u1', 'list'), calling('m1', [{ ...LS }]), touched(), calling('m1', [{ ...LS, output: 'a.txt' }])]);
    expect(found.map(summaries)).toEqual([[], [true], [false], [], [true]]);
  });

  it('summarises the last message only once the input ends', () => {
    resetClock();
    const decoder = new GeminiCliDecoder();
    const note = decoder.decode(calling('m1', [{ ...LS, output: 'a.txt' }]), 1, 0).replayNote as ReplayNote;
    expect(summaries(note)).toEqual([false]);
    decoder.end();
    expect(note.kind === 'message' && note.summary?.calls.map((call) => call.responses.length)).toEqual([1]);
  });

  it('drops every earlier summary when $set.messages replaces the list, and keeps the list’s own', () => {
    resetClock();
    const found = notes([metadata(), user('u1', 'list'), calling('m1', [{ ...LS }]), rewritten([user('u1', 'list'), calling('m1', [{ ...LS, output: 'a.txt' }])]), calling('m2', [{ ...LS }])]);
    expect(found.map(summaries)).toEqual([[], [false], [false], [true, true], [true]]);
  });

  it('keeps earlier summaries across a rewind, which takes back only part of the list', () => {
    resetClock();
    const found = notes([metadata(), user('u1', 'list'), calling('m1', [{ ...LS }]), rewind('m1'), user('u2', 'again')]);
    expect(found.map(summaries)).toEqual([[], [true], [true], [], [true]]);
  });
});
