import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DirectLane } from '../../src/io/direct-lane.js';
import { AtomicFile } from '../../src/io/safe-write.js';

// A large file is written past the page cache (O_DIRECT) where the file system allows it, and the
// usual way where it does not or stops allowing it mid-file: the bytes come out the same every way.

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-direct-lane-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** A seeded generator, so a failing sequence can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Writes chunks of every kind a repair writes (text, buffers small and past the buffer, lists of pieces), an early flush among them; returns the bytes meant. */
async function writeMixed(file: AtomicFile, seed: number): Promise<Buffer> {
  const next = random(seed);
  const expected: Buffer[] = [];
  const reused = Buffer.alloc(5000);
  for (let i = 0; i < 400; i++) {
    const kind = Math.floor(next() * 5);
    if (kind === 0) {
      const text = `line ${i} é ${'x'.repeat(Math.floor(next() * 3000))}\n`;
      await file.write(text);
      expected.push(Buffer.from(text));
    } else if (kind === 1) {
      const length = Math.floor(next() * reused.length);
      reused.fill(i % 251, 0, length);
      await file.write(reused.subarray(0, length));
      expected.push(Buffer.from(reused.subarray(0, length)));
    } else if (kind === 2 && i % 50 === 0) {
      const big = randomBytes(DirectLane.BUFFER_BYTES + 12345);
      await file.write(big);
      expected.push(big);
    } else {
      const pieces = Array.from({ length: Math.floor(next() * 40) }, () => randomBytes(Math.floor(next() * 70_000)));
      await file.write(pieces);
      expected.push(...pieces);
    }
    if (i === 200) await file.flushEarly();
  }
  return Buffer.concat(expected);
}

const laneOf = (file: AtomicFile) => (file as unknown as { lane?: DirectLane }).lane;

describe('AtomicFile past the page cache', () => {
  it('writes a large file through the direct lane where the file system gives one, byte for byte', async () => {
    const target = join(dir, 'out.jsonl');
    const writes = vi.spyOn(DirectLane.prototype, 'send');
    const file = await AtomicFile.create(target, { sizeHint: 1 << 30 });
    const given = laneOf(file) !== undefined;
    const expected = await writeMixed(file, 1);
    await file.commit({ backup: false });
    expect((await readFile(target)).equals(expected)).toBe(true);
    // A file system without direct writes (tmpfs before Linux 6.6) gives none, and the file is written as ever.
    if (given) expect(writes.mock.results.length).toBeGreaterThan(5);
    else expect(writes).not.toHaveBeenCalled();
  });

  it('writes a small file, or one whose size is not known, the usual way', async () => {
    const open = vi.spyOn(DirectLane, 'open');
    for (const sizeHint of [undefined, 1 << 20, (16 << 20) - 1]) {
      const target = join(dir, `small-${sizeHint}.jsonl`);
      const file = await AtomicFile.create(target, sizeHint === undefined ? {} : { sizeHint });
      const expected = await writeMixed(file, 2);
      await file.commit({ backup: false });
      expect((await readFile(target)).equals(expected)).toBe(true);
    }
    expect(open).not.toHaveBeenCalled();
  });

  it('carries on the usual way when the file system refuses direct writes at the first write, or mid-file, or writes short', async () => {
    for (const [refuseAt, short] of [[0, false], [7, false], [3, true]] as const) {
      const target = join(dir, `refused-${refuseAt}-${short}.jsonl`);
      const file = await AtomicFile.create(target, { sizeHint: 1 << 30 });
      const lane = laneOf(file);
      let calls = 0;
      if (lane !== undefined) {
        const handle = (lane as unknown as { handle: { write: (...args: unknown[]) => Promise<{ bytesWritten: number }> } }).handle;
        const write = handle.write.bind(handle);
        handle.write = async (buffer, offset, length, position) => {
          if (calls++ < refuseAt) return write(buffer, offset, length, position);
          if (short) return write(buffer, offset, 1000, position);
          throw Object.assign(new Error('EINVAL: invalid argument, write'), { code: 'EINVAL' });
        };
      }
      const expected = await writeMixed(file, 3 + refuseAt);
      await file.commit({ backup: false });
      expect((await readFile(target)).equals(expected), `refused at write ${refuseAt}${short ? ', short' : ''}`).toBe(true);
      // Once refused, the lane writes no more (the write already under way when it was refused aside).
      if (lane !== undefined) expect(calls).toBeLessThanOrEqual(refuseAt + 2);
    }
  });

  it('an error other than a refusal fails the write: the temp file goes and the target is untouched', async () => {
    const target = join(dir, 'kept.jsonl');
    await writeFile(target, 'old\n');
    const file = await AtomicFile.create(target, { sizeHint: 1 << 30 });
    const lane = laneOf(file);
    if (lane === undefined) return void expect(await readFile(target, 'utf8')).toBe('old\n');
    const handle = (lane as unknown as { handle: { write: () => Promise<never> } }).handle;
    handle.write = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await expect(writeMixed(file, 9)).rejects.toThrow(/cannot write .*kept\.jsonl: .*no space left/);
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['kept.jsonl']);
  });

  it('opens no lane to a name swapped for a link or another file after the temp file was made', async () => {
    const path = join(dir, 'temp');
    const made = await open(path, 'wx');
    try {
      const elsewhere = join(dir, 'elsewhere');
      await writeFile(elsewhere, 'not ours');
      await rm(path);
      await symlink(elsewhere, path);
      expect(await DirectLane.open(path, made)).toBeUndefined();
      await rm(path);
      await writeFile(join(dir, 'other'), 'another file');
      await rename(join(dir, 'other'), path);
      expect(await DirectLane.open(path, made)).toBeUndefined();
      expect(await readFile(elsewhere, 'utf8')).toBe('not ours');
      expect(await readFile(path, 'utf8')).toBe('another file');
    } finally {
      await made.close();
    }
  });
});
