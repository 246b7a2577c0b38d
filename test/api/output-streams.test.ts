import { closeSync, createWriteStream, linkSync, mkdtempSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { canonicalize, InputsFailedError, repair, scan, UserError } from '../../src/index.js';
import { ROOT } from '../cli/run-cli.js';

/** Output streams a caller hands repair(): never onto an input, and never a promise left pending. */
const BROKEN = readFileSync(join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl'));

function session(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-api-streams-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, BROKEN);
  return { dir, file };
}

describe('an fs.WriteStream onto the input', () => {
  it.each([
    ['the same path (flags w: it would truncate)', (file: string) => createWriteStream(file)],
    ['flags r+ (it would overwrite the head)', (file: string) => createWriteStream(file, { flags: 'r+' })],
    ['flags a (it would append)', (file: string) => createWriteStream(file, { flags: 'a' })],
    ['a hard link', (file: string) => (linkSync(file, `${file}.hard`), createWriteStream(`${file}.hard`))],
    ['a symlink', (file: string) => (symlinkSync(file, `${file}.soft`), createWriteStream(`${file}.soft`))],
  ])('%s: refused before the input is opened, read or truncated; the stream is destroyed unopened', async (_name, make) => {
    const { file } = session();
    const output = make(file);
    const emitted = new Promise((resolve) => output.on('error', resolve));
    const closed = new Promise<void>((resolve) => output.on('close', () => resolve()));
    const error = await repair(file, { output }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/^the output stream .* is the input .*session\.jsonl; refusing before anything is read or written$/);
    expect(await emitted).toBe(error);
    await closed;
    expect(output.destroyed).toBe(true);
    expect(readFileSync(file)).toEqual(BROKEN);
  });

  it('a stream on a descriptor already open on the input is refused by identity', async () => {
    const { file } = session();
    const fd = openSync(file, 'r+');
    const output = createWriteStream('', { fd, autoClose: false });
    await expect(repair(file, { output })).rejects.toThrow(/^the output stream is the input .*session\.jsonl; refusing/);
    closeSync(fd);
    expect(readFileSync(file)).toEqual(BROKEN);
  });

  it('a stream to another file opens once checked and receives the repair', async () => {
    const { dir, file } = session();
    const output = createWriteStream(join(dir, 'fixed.jsonl'));
    const report = await repair(file, { output });
    output.end();
    await once(output, 'close');
    expect(report.summary).toMatchObject({ files: 1, changed: 1, errors: 0 });
    expect(readFileSync(join(dir, 'fixed.jsonl')).length).toBeGreaterThan(0);
    expect(readFileSync(file)).toEqual(BROKEN);
  });

  it('a call that fails for another reason destroys the held stream unopened instead of leaving it pending', async () => {
    const { dir, file } = session();
    const output = createWriteStream(join(dir, 'fixed.jsonl'));
    // No 'error' listener: the refusal reaches the caller through the promise, and must not crash the process.
    const closed = new Promise<void>((resolve) => output.on('close', () => resolve()));
    await expect(canonicalize(file, { output, check: true })).rejects.toThrow('--check writes nothing');
    await closed;
    expect(readdirSync(dir)).toEqual(['session.jsonl']);
  });
});

describe('a Writable that stops mid-write', () => {
  /** Takes `limit` bytes, then ends itself the way `end` says, without calling back. */
  function stopping(limit: number, end: (stream: Writable) => void): Writable {
    let taken = 0;
    return new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _encoding, callback) {
        taken += chunk.length;
        if (taken > limit) end(this);
        else callback();
      },
    });
  }

  it.each([
    ['destroyed with an error', (stream: Writable) => stream.destroy(new Error('EPIPE'))],
    ['destroyed without one', (stream: Writable) => stream.destroy()],
    ['closed by its other end', (stream: Writable) => stream.emit('close')],
  ])('%s: the promise rejects, the input is untouched', async (_name, end) => {
    const { file } = session();
    const error = await repair(file, { output: stopping(200, end) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputsFailedError);
    expect(readFileSync(file)).toEqual(BROKEN);
  });

  it('a stream already ended rejects at once', async () => {
    const { file } = session();
    const output = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    output.end();
    await expect(repair(file, { output })).rejects.toThrow(InputsFailedError);
  });
});

describe('scan({ writeBaseline }) onto the input', () => {
  it('is refused before the scan, even through a hard link; the session untouched', async () => {
    const { file } = session();
    linkSync(file, `${file}.hard`);
    await expect(scan(file, { writeBaseline: `${file}.hard` })).rejects.toThrow(/^writeBaseline .* is the input .*session\.jsonl; refusing before anything is read or written$/);
    expect(readFileSync(file)).toEqual(BROKEN);
  });
});
