import { appendFileSync, chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { expandInputs } from '../../src/io/inputs.js';
import { runScan, scanSettings } from '../../src/run/scan.js';
import { call, Session, text } from '../helpers/session.js';

// Before the modules read them: a racy window of 20 ms, not 2 s, and a checkpoint for every file, however small.
const seen = vi.hoisted(() => {
  process.env.TRANSCRIPT_DOCTOR_CACHE_RACY_MS = '20';
  process.env.TRANSCRIPT_DOCTOR_CHECKPOINT_MIN_BYTES = '0';
  return { resumed: [] as string[] };
});
vi.mock('../../src/pipeline/load-checkpointed.js', async (original) => {
  const actual = await original<typeof import('../../src/pipeline/load-checkpointed.js')>();
  return {
    ...actual,
    loadCheckpointed: async (...args: Parameters<typeof actual.loadCheckpointed>) => {
      const loaded = await actual.loadCheckpointed(...args);
      if (loaded.resumed) seen.resumed.push(args[0]);
      return loaded;
    },
  };
});

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const root = mkdtempSync(join(tmpdir(), 'td-checkpoint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  seen.resumed.length = 0;
  vi.restoreAllMocks();
});

let made = 0;
/** A fresh folder with the fixtures (or the given files) and a cache folder beside them. */
async function setUp(files?: Record<string, string>): Promise<{ files: string[]; cacheDir: string }> {
  const dir = join(root, `case-${made++}`);
  if (files === undefined) cpSync(FIXTURES, dir, { recursive: true });
  else {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  }
  await sleep(60); // older than the racy window: remembered, and checkpointed
  return { files: (await expandInputs([dir], [])).map((input) => input.path), cacheDir: join(dir, '..', `cache-${made}`) };
}

async function scan(files: readonly string[], cacheDir?: string) {
  const settings = await scanSettings(cacheDir === undefined ? {} : { cache: true, cacheDir });
  return runScan(
    files.map((path) => ({ kind: 'file' as const, path })),
    settings,
  );
}

function checkpoints(cacheDir: string): string[] {
  return readdirSync(cacheDir).filter((name) => name.startsWith('checkpoint-'));
}

/** Whole lines from a file's own middle (duplicates of its entries), the way a torn copy or a replayed write adds them. */
function middleLines(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.slice(Math.floor(lines.length / 3), Math.floor(lines.length / 3) + 3).join('\n') + '\n';
}

const healthy = (turns: number, secret = 'the notes are fine') => {
  const session = new Session().user('please check my notes');
  for (let k = 0; k < turns; k++) session.calls(call(`call_${k}`)).result(`call_${k}`, 'read', { message: { content: [text(secret)] } }).reply(`turn ${k} done`);
  return session;
};

describe('append-aware scans: a file that only grew is read on from its checkpoint', () => {
  it('gives the report of a cold scan for every fixture after each kind of append, and reads on from the checkpoint where it can', async () => {
    const { files, cacheDir } = await setUp();
    const first = await scan(files, cacheDir);
    expect(first).toEqual(await scan(files));
    // Bounded: more fixtures than the folder keeps.
    expect(files.length).toBeGreaterThan(64);
    expect(checkpoints(cacheDir).length).toBe(64);
    const appends: Array<(file: string, k: number) => string> = [
      (file) => middleLines(file),
      () => '{"type":"message","id":"torn',
      (_file, k) => readFileSync(files[(k + 7) % files.length]!, 'utf8'),
      () => '\n\nnot json at all\n',
      () => healthy(2).lines.slice(1).join('\n') + '\n',
    ];
    for (const [k, append] of appends.entries()) {
      // Scanned once more first: each file gets its checkpoint back (the folder keeps the 64 most recent).
      const some = files.filter((_, i) => i % appends.length === k);
      await scan(some, cacheDir);
      for (const [i, file] of some.entries()) appendFileSync(file, append(file, i));
      const warm = await scan(some, cacheDir);
      expect(warm).toEqual(await scan(some));
    }
    // A fixture with no damage of its own ends in a whole record: its append is read on from the checkpoint.
    expect(seen.resumed.length).toBeGreaterThan(files.length / 3);
  });

  it('reads only the appended turns of a session that grows turn by turn, with the verdict of a cold scan each time', async () => {
    const session = healthy(30);
    const { files, cacheDir } = await setUp({ 'session.jsonl': session.jsonl() });
    const file = files[0]!;
    expect((await scan(files, cacheDir)).reports[0]!.findings).toEqual([]);
    for (let k = 0; k < 4; k++) {
      // A call each time, answered by nothing: the verdict changes with every append.
      const parentId = k === 0 ? session.last : `late-${k - 1}`;
      appendFileSync(file, JSON.stringify({ type: 'message', id: `late-${k}`, parentId, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: `late_call_${k}`, name: 'read', arguments: { path: 'a.md' } }], stopReason: 'toolUse', timestamp: 1 } }) + '\n');
      const grown = await scan(files, cacheDir);
      expect(grown).toEqual(await scan(files));
      await sleep(30);
    }
    expect(seen.resumed.length).toBe(4);
  });

  it('reads the file whole when what the checkpoint was made from changed: edited in place, truncated, replaced, or grown in the middle', async () => {
    const text = healthy(40).jsonl();
    const checkedOnce: string[] = [];
    const edits: Record<string, (file: string) => void> = {
      'an edit inside, then an append': (file) => {
        const bytes = readFileSync(file);
        const at = bytes.indexOf('turn 20 done');
        bytes.write('TURN', at);
        writeFileSync(file, bytes);
        appendFileSync(file, healthy(1).lines[1]! + '\n');
      },
      'truncated, then grown past its old size': (file) => {
        truncateSync(file, Math.floor(statSync(file).size / 2));
        appendFileSync(file, '\n' + healthy(60).lines.slice(1).join('\n') + '\n');
      },
      'edited in place so a line no longer reads, checked (no new checkpoint), then grown': (file) => {
        const bytes = readFileSync(file);
        const at = bytes.indexOf('"turn 20 done"');
        bytes.write('"turn 20 \\q', at); // an escape JSON has not: the line is broken, the size the same
        writeFileSync(file, bytes);
        checkedOnce.push(file);
      },
      'replaced by a longer file with the same start': (file) => {
        writeFileSync(`${file}.new`, readFileSync(file).toString() + healthy(1).lines[1]! + '\n');
        renameSync(`${file}.new`, file);
      },
    };
    for (const [what, edit] of Object.entries(edits)) {
      const { files, cacheDir } = await setUp({ 'session.jsonl': text });
      await scan(files, cacheDir);
      expect(checkpoints(cacheDir), what).toHaveLength(1);
      edit(files[0]!);
      if (checkedOnce.includes(files[0]!)) {
        await sleep(60);
        await scan(files, cacheDir);
        expect(checkpoints(cacheDir), what).toEqual([]);
        appendFileSync(files[0]!, healthy(1).lines[1]! + '\n');
      }
      expect(await scan(files, cacheDir), what).toEqual(await scan(files));
      expect(seen.resumed, what).toEqual([]);
    }
  });

  it('is not fooled by a checkpoint that is corrupt, truncated, not a regular file, or a link: one warning, and the file read whole', async () => {
    const breaks: Record<string, (checkpoint: string) => void> = {
      'a byte changed': (checkpoint) => {
        const bytes = readFileSync(checkpoint);
        bytes[bytes.length - 9] ^= 0xff;
        writeFileSync(checkpoint, bytes);
      },
      truncated: (checkpoint) => truncateSync(checkpoint, Math.floor(statSync(checkpoint).size / 2)),
      'not ours': (checkpoint) => writeFileSync(checkpoint, 'hello'),
      'a folder': (checkpoint) => {
        rmSync(checkpoint);
        mkdirSync(checkpoint);
      },
      'a link to another checkpoint': (checkpoint) => {
        const other = `${checkpoint}.other`;
        copyFileSync(checkpoint, other);
        rmSync(checkpoint);
        symlinkSync(other, checkpoint);
      },
    };
    for (const [what, damage] of Object.entries(breaks)) {
      const { files, cacheDir } = await setUp({ 'session.jsonl': healthy(20).jsonl() });
      await scan(files, cacheDir);
      damage(join(cacheDir, checkpoints(cacheDir)[0]!));
      appendFileSync(files[0]!, healthy(1).lines[1]! + '\n');
      const warnings: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (warnings.push(String(chunk)), true));
      const warm = await scan(files, cacheDir);
      vi.restoreAllMocks();
      expect(warm, what).toEqual(await scan(files));
      expect(seen.resumed, what).toEqual([]);
      expect(warnings.length, what).toBeLessThanOrEqual(1);
    }
  });

  it('holds no transcript text and is written 0600 in a 0700 folder', async () => {
    const secret = 'sk-live-CHECKPOINT-SECRET-4242 and a path /home/someone/private';
    const { files, cacheDir } = await setUp({ 'session.jsonl': healthy(10, secret).jsonl() });
    await scan(files, cacheDir);
    const [name] = checkpoints(cacheDir);
    const bytes = readFileSync(join(cacheDir, name!));
    expect(bytes.includes('CHECKPOINT-SECRET')).toBe(false);
    expect(bytes.includes('/home/someone')).toBe(false);
    expect(bytes.includes('please check my notes')).toBe(false);
    expect(statSync(join(cacheDir, name!)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
  });

  it('gives each of two scans at once the cold report, and leaves one whole checkpoint', async () => {
    const { files, cacheDir } = await setUp({ 'session.jsonl': healthy(50).jsonl() });
    await scan(files, cacheDir);
    appendFileSync(files[0]!, healthy(3).lines.slice(1).join('\n') + '\n');
    const expected = await scan(files);
    await sleep(60);
    const both = await Promise.all([scan(files, cacheDir), scan(files, cacheDir)]);
    expect(both).toEqual([expected, expected]);
    expect(checkpoints(cacheDir)).toHaveLength(1);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves no checkpoint in a cache folder it cannot write, and still scans', async () => {
    const { files, cacheDir } = await setUp({ 'session.jsonl': healthy(5).jsonl() });
    mkdirSync(cacheDir, { mode: 0o700 });
    chmodSync(cacheDir, 0o500);
    try {
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      expect(await scan(files, cacheDir)).toEqual(await scan(files));
    } finally {
      chmodSync(cacheDir, 0o700);
    }
    // Root may write anyway; what matters is that the scan's report did not depend on it.
    expect(checkpoints(cacheDir).length).toBeLessThanOrEqual(1);
  });

  it('removes the temp file a killed write left, once it is old, and keeps one being written', async () => {
    const { files, cacheDir } = await setUp({ 'a.jsonl': healthy(5).jsonl(), 'b.jsonl': healthy(6).jsonl() });
    await scan(files.slice(0, 1), cacheDir);
    const [name] = checkpoints(cacheDir);
    const stale = join(cacheDir, `.${name}.4242-0badf00d.tmp`);
    const fresh = join(cacheDir, `.${name}.4243-0badf00d.tmp`);
    writeFileSync(stale, 'half a checkpoint');
    writeFileSync(fresh, 'half a checkpoint');
    utimesSync(stale, new Date(Date.now() - 2 * 60 * 60 * 1000), new Date(Date.now() - 2 * 60 * 60 * 1000));
    await scan(files.slice(1), cacheDir);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(checkpoints(cacheDir)).toHaveLength(2);
  });
});
