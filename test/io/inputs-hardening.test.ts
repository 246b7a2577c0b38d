import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { expandInputs } from '../../src/io/inputs.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'td-inputs-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function folder(files: string[] = []): string {
  const dir = join(root, `case-${++count}`);
  mkdirSync(dir);
  for (const file of files) writeFileSync(join(dir, file), '{}\n');
  return dir;
}

async function expand(args: string[]) {
  const warnings: string[] = [];
  const inputs = await expandInputs(args, [], (message) => warnings.push(message));
  return { paths: inputs.map((input) => input.path), warnings };
}

async function refusal(args: string[]): Promise<string> {
  const error = await expandInputs(args, [], () => undefined).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as Error).message;
}

describe('expandInputs on inputs that could hang or repeat', () => {
  it('gives each real file once, however many paths name it', async () => {
    const dir = folder(['a.jsonl']);
    symlinkSync('a.jsonl', join(dir, 'alias.jsonl'));
    symlinkSync('.', join(dir, 'here'));
    const { paths } = await expand([join(dir, 'a.jsonl'), `${dir}/./a.jsonl`, join(dir, 'alias.jsonl'), dir, join(dir, 'here', 'a.jsonl')]);
    expect(paths).toEqual([join(dir, 'a.jsonl')]);
  });

  it('ends on a folder that links to itself and to its parent, with one warning per link', async () => {
    const dir = folder(['a.jsonl']);
    symlinkSync('.', join(dir, 'here'));
    symlinkSync('..', join(dir, 'up'));
    const { paths, warnings } = await expand([dir]);
    expect(paths).toEqual([join(dir, 'a.jsonl')]);
    expect(warnings).toEqual([`not following ${join(dir, 'here')}: it links back to a folder that holds it`, `not following ${join(dir, 'up')}: it links back to a folder that holds it`]);
  });

  it('refuses a FIFO given by name without opening it, pointing at - for pipes', async () => {
    const dir = folder();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await refusal([fifo])).toBe(`nothing to read: ${fifo} is a FIFO, not a regular file (to read a pipe, send it to standard input and pass -)`);
  });

  it('skips a FIFO found in a folder or named next to other files with a warning, and keeps the rest', async () => {
    const dir = folder(['ok.jsonl']);
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    expect(await expand([dir])).toEqual({
      paths: [join(dir, 'ok.jsonl')],
      warnings: [`skipped ${join(dir, 'pipe.jsonl')}: a FIFO, not a regular file (to read a pipe, send it to standard input and pass -)`],
    });
    expect((await expand([join(dir, '*.jsonl')])).paths).toEqual([join(dir, 'ok.jsonl')]);
    expect((await expand([join(dir, 'pipe.jsonl'), join(dir, 'ok.jsonl')])).warnings).toHaveLength(1);
  });

  it('refuses devices such as /dev/null and /dev/zero, and counts what else was skipped', async () => {
    expect(await refusal(['/dev/null'])).toBe('nothing to read: /dev/null is a character device, not a regular file');
    expect(await refusal(['/dev/zero', '/dev/null'])).toBe('nothing to read: /dev/zero is a character device, not a regular file (and 1 more that are not regular files)');
  });

  it('refuses a folder whose only transcript is a FIFO, naming the FIFO', async () => {
    const dir = folder();
    execFileSync('mkfifo', [join(dir, 'only.jsonl')]);
    expect(await refusal([dir])).toMatch(/^nothing to read: .*only\.jsonl is a FIFO/);
  });

  it('says nothing about a FIFO the project config ignores', async () => {
    const dir = folder(['ok.jsonl']);
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const warnings: string[] = [];
    const inputs = await expandInputs([dir], [join(dir, 'pipe.*')], (message) => warnings.push(message));
    expect(inputs.map((input) => input.path)).toEqual([join(dir, 'ok.jsonl')]);
    expect(warnings).toEqual([]);
  });

  it('still reads standard input from -', async () => {
    expect((await expand(['-', '-'])).paths).toEqual(['-']);
  });
});

describe('loadTranscriptFile on what is not a regular file', () => {
  it('fails at once on a FIFO that no one writes to, instead of waiting for a writer', async () => {
    const dir = folder();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(loadTranscriptFile(fifo)).rejects.toThrow('a FIFO, not a regular file');
  });

  it('fails at once on /dev/zero, reading nothing from it', async () => {
    await expect(loadTranscriptFile('/dev/zero')).rejects.toThrow('a character device, not a regular file');
  });
});
