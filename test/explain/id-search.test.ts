import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesWithIds } from '../../src/explain/id-search.js';

const dir = mkdtempSync(join(tmpdir(), 'td-id-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1 << 20;
const ID = 'toolu_01GfghBCkxKjjizDvsyeWy5B';

function file(name: string, body: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

describe('filesWithIds', () => {
  it('finds an id wherever it falls across the reads, and only whole', async () => {
    // Reads are 1 MiB plus the longest id less one byte, then 1 MiB: ids placed across each seam.
    const seam = MiB + ID.length - 1;
    const files = [seam - 1, seam - 10, seam - ID.length + 1, seam - ID.length, seam, 2 * MiB + ID.length - 1 - 7, 10].map((at, k) => file(`at-${k}.jsonl`, Buffer.concat([Buffer.alloc(at, 'x'), Buffer.from(ID), Buffer.alloc(100, 'y')])));
    const cut = file('cut.jsonl', Buffer.concat([Buffer.alloc(MiB - 5, 'x'), Buffer.from(ID.slice(0, 20))]));
    const hits = filesWithIds([...files, cut], [ID]);
    expect(hits).toEqual(files.map((path) => ({ file: path, ids: [ID] })));
  });

  it('finds an id as JSON escapes it', async () => {
    const odd = 'call_"quoted"\\id';
    const path = file('escaped.jsonl', `${JSON.stringify({ id: odd })}\n`);
    expect(filesWithIds([path], [odd])).toEqual([{ file: path, ids: [odd] }]);
  });

  it('keeps the order of the files and says which ids each holds', async () => {
    const other = 'call_sU7XBNcR8nNV7j2rvuzYEHCP';
    const a = file('a.jsonl', `{"id":"${other}"}\n`);
    const b = file('b.jsonl', `{"id":"${ID}"}\n{"toolCallId":"${other}"}\n`);
    const none = file('none.jsonl', '{"id":"toolu_01Else"}\n');
    expect(filesWithIds([b, none, a], [ID, other])).toEqual([
      { file: b, ids: [ID, other] },
      { file: a, ids: [other] },
    ]);
  });

  it('skips files it cannot read, and empty ones', async () => {
    const gone = join(dir, 'gone.jsonl');
    const empty = file('empty.jsonl', '');
    const locked = file('locked.jsonl', ID);
    chmodSync(locked, 0);
    const good = file('good.jsonl', ID);
    const hits = filesWithIds([gone, empty, locked, good], [ID]);
    // Root reads a mode-0 file all the same; either way nothing throws and the good file is found.
    expect(hits.map((hit) => hit.file).filter((path) => path !== locked)).toEqual([good]);
  });
});
