import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bytesOfName } from '../../src/io/byte-names.js';
import { formatPathList, readPathList } from '../../src/io/path-list.js';

const dir = mkdtempSync(join(tmpdir(), 'td-path-list-'));
const fromStdin = (bytes: Buffer | string, nul = false) => readPathList('-', nul, Readable.from([Buffer.from(bytes)]));
const refusal = (promise: Promise<unknown>) => promise.then(() => 'read', (error: Error) => error.message);

describe('readPathList', () => {
  it('takes a Windows line end as one separator and skips lines of only spaces', async () => {
    expect(await fromStdin('a.jsonl\r\n   \r\n\t\nb c.jsonl\r\n  d.jsonl \n')).toEqual(['a.jsonl', 'b c.jsonl', '  d.jsonl ']);
  });

  it('with -0 keeps every byte of a name, even a carriage return or only spaces', async () => {
    expect(await fromStdin('a\r\0  \0b\n\0', true)).toEqual(['a\r', '  ', 'b\n']);
  });

  it('keeps a name that is not UTF-8 byte for byte, through -l -0 and back', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6a]);
    const list = Buffer.concat([latin1, Buffer.from([0]), Buffer.from('ok\0')]);
    const names = await fromStdin(list, true);
    expect(names[1]).toBe('ok');
    expect(bytesOfName(names[0]!)).toEqual(latin1);
    expect(formatPathList(names, true)).toEqual(list);
  });

  it('refuses a stream of separators at once (/dev/zero on standard input)', async () => {
    expect(await refusal(fromStdin(Buffer.alloc(1 << 20), true))).toBe('--files-from -: more than 1000 empty entries; this is not a list of paths');
    expect(await refusal(fromStdin('\n'.repeat(5000)))).toBe('--files-from -: more than 1000 empty entries; this is not a list of paths');
  });

  it('a double-spaced list is still a list', async () => {
    const names = Array.from({ length: 3000 }, (_, i) => `s${i}.jsonl`);
    expect(await fromStdin(names.join('\n\n'))).toEqual(names);
  });

  it('refuses a device, a socket path or a folder as the list file without reading it', async () => {
    symlinkSync('/dev/zero', join(dir, 'zero'));
    symlinkSync('/dev/urandom', join(dir, 'urandom'));
    for (const [path, kind] of [['/dev/zero', 'a character device'], [join(dir, 'urandom'), 'a character device'], [dir, 'a folder']]) {
      expect(await refusal(readPathList(path!, true, Readable.from([])))).toBe(`--files-from ${path} is ${kind}, not a file holding a list of paths`);
    }
  });

  it('refuses an overlong entry, and a newline list holding NUL bytes', async () => {
    writeFileSync(join(dir, 'long'), 'x'.repeat(70 * 1024));
    expect(await refusal(readPathList(join(dir, 'long'), false, Readable.from([])))).toContain('an entry is longer than 65536 bytes; this is not a list of paths');
    expect(await refusal(fromStdin('a\0b'))).toBe('--files-from - holds NUL bytes: add -0 to read a NUL-separated list');
  });
});
