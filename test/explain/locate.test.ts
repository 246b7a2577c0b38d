import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locate } from '../../src/explain/locate.js';
import { recognise } from '../../src/explain/recognise.js';
import { call, Session } from '../helpers/session.js';
import { healthy, toolId } from './fake-home.js';

const dir = mkdtempSync(join(tmpdir(), 'td-locate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, session: Session): string {
  const file = join(dir, name);
  writeFileSync(file, session.jsonl());
  return file;
}

describe('locate', () => {
  const reused = (seed: string) => new Session().user('go').calls(call(toolId(seed))).result(toolId(seed)).calls(call(toolId(seed))).result(toolId(seed)).reply();
  const error = recognise('messages.40.content.1: `tool_use` ids must be unique');

  it('without ids, scans the newest sessions within a byte budget, at least one', async () => {
    const files = [write('a.jsonl', healthy('a', 6)), write('b.jsonl', healthy('b', 6)), write('c.jsonl', reused('c'))];
    expect(await locate(error, files, 1)).toMatchObject({ method: 'recent', considered: 1, matches: [] });
    const all = await locate(error, files);
    expect(all).toMatchObject({ method: 'recent', considered: 3, scanned: 3 });
    expect(all.matches.map((match) => match.file)).toEqual([files[2]]);
  });

  it('with ids, scans only the files that hold them', async () => {
    const missing = toolId('only-here');
    const files = [write('d.jsonl', healthy('d')), write('e.jsonl', new Session().user('x').calls(call(missing)).user('y').reply()), write('f.jsonl', healthy('f'))];
    const search = await locate(recognise(`No tool output found for function call ${missing}.`), files);
    expect(search).toMatchObject({ method: 'ids', considered: 1, scanned: 1 });
    expect(search.matches[0]).toMatchObject({ file: files[1], finding: { rule: 'missing-tool-result', line: 3 } });
  });

  it('with ids, stops byte-searching older files once a newer one matches the error in every respect', async () => {
    const id = toolId('twice');
    const broken = (name: string) => write(name, new Session().user('x').calls(call(id)).user('y').reply());
    const files = [broken('newest.jsonl'), ...Array.from({ length: 150 }, (_, k) => write(`h${k}.jsonl`, healthy(`h${k}`, 1))), broken('oldest.jsonl')];
    const exact = await locate(recognise(`messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}`), files);
    expect(exact).toMatchObject({ considered: 1, scanned: 1, read: 64 });
    expect(exact.matches.map((match) => match.file)).toEqual([files[0]]);
    // At another message index nothing matches fully: every file is read, both sessions found, the newer first.
    const other = await locate(recognise(`messages.9: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}`), files);
    expect(other).toMatchObject({ considered: 2, scanned: 2, read: files.length });
    expect(other.matches.map((match) => match.file)).toEqual([files[0], files.at(-1)]);
  });
});
