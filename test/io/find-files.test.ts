import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles, transcriptFolder } from '../../src/io/find-files.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-find-files-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh folder holding the given files (content is irrelevant here). */
function folder(files: string[] = []): string {
  const dir = join(root, `case-${++count}`);
  mkdirSync(dir);
  for (const file of files) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), '{}\n');
  }
  return dir;
}

function found(dir: string) {
  const search = findFiles(dir, transcriptFolder(() => false));
  return {
    files: search.files.map((file) => relative(dir, file.path)),
    skipped: search.skipped.map((file) => `${relative(dir, file.path)} (${file.kind})`),
    notes: search.notes.map((note) => note.replaceAll(dir, '<dir>')),
  };
}

describe('findFiles', () => {
  it('does not follow a link to its own folder or to the one above, and names each file once', () => {
    const dir = folder(['a.jsonl']);
    symlinkSync('.', join(dir, 'here'));
    symlinkSync('..', join(dir, 'up'));
    expect(found(dir)).toEqual({
      files: ['a.jsonl'],
      skipped: [],
      notes: ['not following <dir>/here: it links back to a folder that holds it', 'not following <dir>/up: it links back to a folder that holds it'],
    });
  });

  it('ends on a cycle of links between two folders, naming every file by its plain path', () => {
    const dir = folder(['a/x.jsonl', 'b/y.jsonl']);
    symlinkSync('../b', join(dir, 'a', 'to-b'));
    symlinkSync('../a', join(dir, 'b', 'to-a'));
    expect(found(dir).files).toEqual(['a/x.jsonl', 'b/y.jsonl']);
    // Entered through one side of the cycle, the other side is still read once.
    expect(found(join(dir, 'a')).files).toEqual(['to-b/y.jsonl', 'x.jsonl']);
  });

  it('follows a link to a folder elsewhere, and a file reached by several links is found once', () => {
    const elsewhere = folder(['s1.jsonl', 'deep/s2.jsonl']);
    const dir = folder(['own.jsonl']);
    symlinkSync(elsewhere, join(dir, 'linked'));
    symlinkSync(elsewhere, join(dir, 'linked-again'));
    symlinkSync(join(elsewhere, 's1.jsonl'), join(dir, 'alias.jsonl'));
    const result = findFiles(dir, transcriptFolder(() => false));
    expect(result.files.map((file) => relative(dir, file.path))).toEqual(['alias.jsonl', 'linked/deep/s2.jsonl', 'own.jsonl']);
    expect(result.files.map((file) => file.real)).toEqual([join(elsewhere, 's1.jsonl'), join(elsewhere, 'deep', 's2.jsonl'), join(dir, 'own.jsonl')]);
  });

  it('prefers the plain path when a folder is also reached through a link that sorts first', () => {
    const dir = folder(['z/s.jsonl']);
    symlinkSync('z', join(dir, 'a-link'));
    expect(found(dir).files).toEqual(['z/s.jsonl']);
  });

  it('passes over dangling links and links that loop among themselves', () => {
    const dir = folder(['ok.jsonl']);
    symlinkSync('missing.jsonl', join(dir, 'dangling.jsonl'));
    symlinkSync('loop-b.jsonl', join(dir, 'loop-a.jsonl'));
    symlinkSync('loop-a.jsonl', join(dir, 'loop-b.jsonl'));
    expect(found(dir)).toEqual({ files: ['ok.jsonl'], skipped: [], notes: [] });
  });

  it('skips FIFOs and sockets named like transcripts, directly or through a link, without opening them', async () => {
    const dir = folder(['ok.jsonl']);
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    symlinkSync('pipe.jsonl', join(dir, 'linked-pipe.jsonl'));
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'socket.jsonl'), resolve));
    try {
      expect(found(dir)).toEqual({
        files: ['ok.jsonl'],
        skipped: ['linked-pipe.jsonl (a FIFO)', 'pipe.jsonl (a FIFO)', 'socket.jsonl (a socket)'],
        notes: [],
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves out node_modules, dot folders and dot files, as the glob **/*.jsonl does', () => {
    const dir = folder(['node_modules/x/a.jsonl', '.git/b.jsonl', '.hidden.jsonl', 'notes.txt', 'sub/c.jsonl']);
    expect(found(dir).files).toEqual(['sub/c.jsonl']);
  });

  it('sorts by path below the root', () => {
    const dir = folder(['b.jsonl', 'a/z.jsonl', 'a.jsonl', 'A.jsonl']);
    expect(found(dir).files).toEqual(['A.jsonl', 'a.jsonl', 'a/z.jsonl', 'b.jsonl']);
  });
});
