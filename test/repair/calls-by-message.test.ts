import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import type { CallOccurrence } from '../../src/model/occurrences.js';
import { CallsByMessage } from '../../src/repair/calls-by-message.js';
import { call, Session } from '../helpers/session.js';

// Three assistant messages with calls (2, 1 and 3 of them) around messages without any.
async function calls() {
  const jsonl = new Session()
    .user('look around')
    .calls(call('c1'), call('c2'))
    .result('c1')
    .result('c2')
    .reply('nothing yet')
    .user('again')
    .calls(call('c3'))
    .result('c3')
    .calls(call('c4'), call('c5'), call('c6'))
    .result('c4')
    .jsonl();
  const analysis = analyze(await loadTranscript(Readable.from([Buffer.from(jsonl)])));
  const store = analysis.entries;
  const views = store.toArray();
  const items = analysis.replayed.map((index) => views[index]!);
  const pairing = analysis.replay.pairing;
  // What the planner built before: every occurrence object, grouped by its message.
  const grouped = new Map<(typeof items)[number], typeof pairing.occurrences>();
  for (const occurrence of pairing.occurrences) grouped.set(items[occurrence.at]!, [...(grouped.get(items[occurrence.at]!) ?? []), occurrence]);
  return { byMessage: new CallsByMessage(pairing.byNumber, items, store.length), grouped, items, pairing };
}

describe('calls by message', () => {
  it('hands out each message its own occurrences, the objects the pairing holds', async () => {
    const { byMessage, grouped, items } = await calls();
    expect([...grouped.values()].map((list) => list.length)).toEqual([2, 1, 3]);
    for (const item of items) expect(byMessage.get(item)).toEqual(grouped.get(item));
    for (const [message, list] of grouped) byMessage.get(message)!.forEach((occurrence, k) => expect(occurrence).toBe(list[k]));
  });

  it('collects numbers for untouched lists and objects for replaced ones; values follow path order', async () => {
    const { byMessage, grouped, pairing } = await calls();
    const [first, second, third] = [...grouped.keys()];
    byMessage.set(third!, grouped.get(third!)!.slice(1));
    byMessage.delete(second!);
    expect(byMessage.get(second!)).toBeUndefined();
    const into: Array<CallOccurrence | number> = [];
    byMessage.collect(first!, into);
    byMessage.collect(second!, into);
    byMessage.collect(third!, into);
    expect(into.slice(0, 2)).toEqual([0, 1]);
    expect(into.slice(2)).toEqual(grouped.get(third!)!.slice(1));
    expect(into.slice(0, 2).map((n) => pairing.byNumber.object(n as number))).toEqual(grouped.get(first!));
    expect([...byMessage.values()]).toEqual([grouped.get(first!), grouped.get(third!)!.slice(1)]);
  });

  it('finds the number of an occurrence object', async () => {
    const { pairing } = await calls();
    pairing.occurrences.forEach((occurrence, n) => expect(pairing.byNumber.numberOf(occurrence)).toBe(n));
    expect(pairing.byNumber.firstAt(pairing.occurrences[2]!.at)).toBe(2);
  });
});
