import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { analyze } from '../../src/model/analysis.js';
import { isNode, PathWalker } from '../../src/model/tree.js';
import { call, Session } from '../helpers/session.js';

async function analysed(jsonl: string) {
  return analyze(await loadTranscript(Readable.from([Buffer.from(jsonl)])));
}

const lineOf = (analysis: Awaited<ReturnType<typeof analysed>>, indices: number[]) => indices.map((i) => analysis.entries.at(i).line);

describe('replay path', () => {
  it('is the last entry in file order walked back to the root, not the newest branch by time', async () => {
    // root ─ a ─ b        (abandoned)
    //      └ c ─ d        (last line: replayed)
    const jsonl = new Session()
      .user('root', { id: 'r0000000' })
      .reply('a', )
      .user('b')
      .user('c', { parent: 'r0000000' })
      .reply('d')
      .jsonl();
    const analysis = await analysed(jsonl);
    expect(lineOf(analysis, analysis.tree.replayPath)).toEqual([2, 5, 6]);
    expect(analysis.tree.leaves.map((i) => analysis.entries.at(i).line)).toEqual([4, 6]);
    expect(analysis.status(2)).toBe('abandoned');
    expect(analysis.status(1)).toBe('replayed');
    expect(analysis.paths).toHaveLength(2);
    expect(analysis.paths[0]!.scope).toBe('replay');
  });

  it('stops at an unknown parent (history before it is cut off)', async () => {
    const analysis = await analysed(new Session().user().reply().user('x', { parent: 'gone0000' }).reply().jsonl());
    expect(lineOf(analysis, analysis.tree.replayPath)).toEqual([4, 5]);
    expect(analysis.tree.unknownParents).toEqual([3]);
  });

  it('terminates on cycles', async () => {
    const jsonl = new Session().user('a', { id: 'aaaaaaaa', parent: 'bbbbbbbb' }).user('b', { id: 'bbbbbbbb', parent: 'aaaaaaaa' }).jsonl();
    const analysis = await analysed(jsonl);
    expect(analysis.tree.replayPath).toHaveLength(2);
    expect(analysis.tree.cycles).toHaveLength(1);
  });

  it('uses the latest compaction: summary, kept entries from firstKeptEntryId, then the rest', async () => {
    const jsonl = new Session()
      .user('old')
      .reply()
      .user('kept', { id: 'keep0000' })
      .reply()
      .entry({ type: 'compaction', summary: 's', firstKeptEntryId: 'keep0000', tokensBefore: 9 })
      .user('new')
      .jsonl();
    const analysis = await analysed(jsonl);
    const { context } = analysis.paths[0]!;
    expect([...context].map((entry, at) => [entry.line, context.messageIndex[at]])).toEqual([
      [6, 0],
      [4, 1],
      [5, 2],
      [7, 3],
    ]);
    expect(analysis.status(1)).toBe('compacted');
  });

  it('keeps nothing before a compaction whose firstKeptEntryId is not on the path', async () => {
    const analysis = await analysed(new Session().user().reply().entry({ type: 'compaction', summary: 's', firstKeptEntryId: 'nowhere0' }).jsonl());
    expect([...analysis.paths[0]!.context].map((entry) => entry.kind)).toEqual(['compaction']);
  });

  it('judges each abandoned branch with the history it shares', async () => {
    const jsonl = new Session()
      .user('q', { id: 'q0000000' })
      .calls(call('t1'))
      .result('t1', 'read', { id: 'r1000000' })
      .calls(call('t2'))
      .user('retry', { parent: 'r1000000' })
      .reply()
      .jsonl();
    const analysis = await analysed(jsonl);
    const branch = analysis.paths[1]!;
    expect(branch.scope).toBe('abandoned');
    expect(branch.pairing.missing.map((o) => o.call.id)).toEqual(['t2']);
    expect(analysis.paths[0]!.pairing.missing).toEqual([]);
  });
});

describe('a file whose every node hangs on the one before it (Codex, Copilot CLI)', () => {
  it('is one path of every node, past the header, as walking its parents gives', async () => {
    for (const fixture of ['fixtures/copilot-cli/healthy.jsonl', 'fixtures/copilot-cli/subagents-interleaved.jsonl', 'fixtures/codex/healthy.jsonl']) {
      const transcript = await loadTranscript(createReadStream(fixture));
      const { tree, entries } = analyze(transcript);
      const nodes = Array.from({ length: entries.length }, (_, i) => i).filter((i) => isNode(entries, i));
      expect(entries.kind(0), fixture).toBe('header');
      expect(tree.replayPath, fixture).toEqual(nodes);
      expect(tree.replayPath, fixture).toEqual(new PathWalker(tree.parent).path(tree.leaf));
      expect(tree.leaves, fixture).toEqual([nodes.at(-1)]);
      expect(tree.parent[nodes[0]!], fixture).toBe(-1);
    }
  });
});
