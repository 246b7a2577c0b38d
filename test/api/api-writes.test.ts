import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputsFailedError, repair, scan, UserError } from '../../src/index.js';
import { ROOT } from '../cli/run-cli.js';

/** The library writes through the commands' writer; these are the ways a caller can make that go wrong. */
const BROKEN = readFileSync(join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl'));
const tempDir = () => mkdtempSync(join(tmpdir(), 'td-api-writes-'));

function session(dir: string, name = 'session.jsonl'): string {
  const file = join(dir, name);
  writeFileSync(file, BROKEN);
  return file;
}

describe('repair() writing where a caller points it', () => {
  it('a Writable that fails rejects, and leaves the input as it was', async () => {
    const dir = tempDir();
    const file = session(dir);
    const failing = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('disk on fire'));
      },
    });
    const error = await repair(file, { output: failing }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputsFailedError);
    expect((error as InputsFailedError).message).toContain('disk on fire');
    expect(readFileSync(file)).toEqual(BROKEN);
    expect(readdirSync(dir)).toEqual(['session.jsonl']);
  });

  it('a Readable that breaks mid-way writes no output file at all', async () => {
    const dir = tempDir();
    const output = join(dir, 'fixed.jsonl');
    async function* torn() {
      yield BROKEN.subarray(0, 100);
      throw new Error('connection reset');
    }
    await expect(repair(Readable.from(torn()), { output })).rejects.toThrow(/connection reset/);
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses an output that is the input, directly or through a symlink, and a stream for several inputs', async () => {
    const dir = tempDir();
    const file = session(dir);
    symlinkSync(file, join(dir, 'link.jsonl'));
    await expect(repair(file, { output: file })).rejects.toThrow(UserError);
    await expect(repair(file, { output: join(dir, 'link.jsonl') })).rejects.toThrow(UserError);
    await expect(repair([file, session(dir, 'other.jsonl')], { output: new Writable({ write: (_c, _e, done) => done() }) })).rejects.toThrow(
      '2 transcripts to repair: a stream output takes one input',
    );
    expect(readFileSync(file)).toEqual(BROKEN);
  });

  it('two in-place repairs of one file at once: the file ends repaired, never half of each', async () => {
    // Raced 20 times: the window between the last check and the rename is narrow (3 in 60 races once kept a repaired file as the backup).
    for (let round = 0; round < 20; round++) {
      const dir = tempDir();
      const file = session(dir);
      const outcomes = await Promise.allSettled([repair(file, { inPlace: true }), repair(file, { inPlace: true })]);
      expect(outcomes.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InputsFailedError);
      expect((await scan(file)).summary.errors).toBe(0);
      expect(readdirSync(dir).filter((name) => !name.startsWith('session.jsonl'))).toEqual([]);
      // Every backup is the original: a later writer never backs up what another one wrote.
      for (const name of readdirSync(dir).filter((entry) => entry.includes('.bak-'))) expect(readFileSync(join(dir, name))).toEqual(BROKEN);
    }
  });
});
