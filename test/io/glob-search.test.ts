import { describe, expect, it } from 'vitest';
import { globSearch, isGlob } from '../../src/io/glob-search.js';

/** What the rules say about folders and files, as `+` (entered / taken) and `-`. */
function judge(pattern: string, folders: string[], files: string[]) {
  const { root, rules } = globSearch(pattern);
  const name = (relative: string) => relative.slice(relative.lastIndexOf('/') + 1);
  return {
    root,
    folders: folders.map((relative) => `${rules.enter(relative, name(relative)) ? '+' : '-'}${relative}`),
    files: files.map((relative) => `${rules.wants(relative, name(relative)) ? '+' : '-'}${relative}`),
  };
}

describe('globSearch', () => {
  it('starts at the part without wildcards and reads no deeper than the pattern reaches', () => {
    expect(judge('logs/*.jsonl', ['sub'], ['a.jsonl', 'sub/b.jsonl', 'a.txt'])).toEqual({
      root: 'logs',
      folders: ['-sub'],
      files: ['+a.jsonl', '-sub/b.jsonl', '-a.txt'],
    });
  });

  it('enters only folders whose names match the segment at their depth', () => {
    expect(judge('/data/agents/*/sessions/*.jsonl', ['main', 'main/sessions', 'main/other', 'main/sessions/deeper'], ['main/sessions/s.jsonl'])).toEqual({
      root: '/data/agents',
      folders: ['+main', '+main/sessions', '-main/other', '-main/sessions/deeper'],
      files: ['+main/sessions/s.jsonl'],
    });
  });

  it('enters any folder below a globstar except node_modules and dot folders', () => {
    expect(judge('**/*.jsonl', ['a', 'a/b/c', 'node_modules', 'a/node_modules', '.git'], ['a/b/c/x.jsonl', '.x.jsonl'])).toEqual({
      root: '.',
      folders: ['+a', '+a/b/c', '-node_modules', '-a/node_modules', '-.git'],
      files: ['+a/b/c/x.jsonl', '-.x.jsonl'],
    });
    expect(judge('**/.cache/*.jsonl', ['.cache'], ['.cache/x.jsonl']).folders).toEqual(['+.cache']);
  });

  it('treats braces that hold a slash as reaching any depth', () => {
    expect(judge('a/{b,c/d}/*.jsonl', ['b', 'c', 'c/d'], ['b/x.jsonl', 'c/d/x.jsonl', 'c/x.jsonl']).files).toEqual(['+b/x.jsonl', '+c/d/x.jsonl', '-c/x.jsonl']);
  });

  it('tells patterns from plain paths', () => {
    expect(['a/*.jsonl', '{a,b}.jsonl', 'x?.jsonl', '[ab].jsonl', 'a/b.jsonl', 'plain'].map(isGlob)).toEqual([true, true, true, true, false, false]);
  });
});
