import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const PATCH = '/usr/bin/patch';
const BIN = join(ROOT, 'bin', 'transcript-doctor.js');

const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures', 'pi', name));
const BROKEN = fixture('missing-tool-result.jsonl');
const HEALTHY = fixture('healthy.jsonl');
const LEGACY = fixture('non-canonical-tool-call.jsonl');

/** Byte runs that a UTF-8 text view gets wrong: invalid and truncated sequences, a surrogate, NUL, a lone CR, CRLF. */
const ODD_BYTES = [[0xff], [0xfe, 0x41], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x00], [0x0d], [0x0d, 0x0a], [0x80]];

/** `git apply`, outside any repository, so it reads the diff as `patch` does; undefined when git is not installed. */
const GIT = spawnSync('git', ['--version']).status === 0 ? 'git' : undefined;

/** What running a command gives: its exit code, standard output as bytes, and the file it wrote (if any). */
function run(args: string[], cwd: string): { code: number | null; stdout: Buffer } {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1' } });
  return { code: result.status, stdout: result.stdout };
}

/** The original with the diff applied by `tool`, in a folder of its own. */
function applied(original: Buffer, diff: Buffer, tool: 'patch' | 'git'): Buffer {
  if (tool === 'patch' && !existsSync(PATCH)) throw new Error(`${PATCH} is missing: install GNU patch to run the E18 tests`);
  const dir = mkdtempSync(join(tmpdir(), 'td-diff-apply-'));
  writeFileSync(join(dir, 's.jsonl'), original);
  writeFileSync(join(dir, 'd.diff'), diff);
  const result =
    tool === 'patch'
      ? spawnSync(PATCH, ['--quiet', '-p1', '-i', 'd.diff'], { cwd: dir })
      : spawnSync('git', ['apply', '--whitespace=nowarn', '-p1', 'd.diff'], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) } });
  expect(result.status, `${tool}: ${result.stderr.toString()}`).toBe(0);
  return readFileSync(join(dir, 's.jsonl'));
}

/**
 * `<verb> --diff` beside `<verb> --out`: no diff and the same exit code when nothing changes;
 * otherwise exit 1 and a diff that patch (and git apply) turn into exactly the bytes --out wrote.
 */
function checkDiff(verb: 'repair' | 'canonicalize', original: Buffer): void {
  const dir = mkdtempSync(join(tmpdir(), 'td-diff-bytes-'));
  writeFileSync(join(dir, 's.jsonl'), original);
  const written = run([verb, 's.jsonl', '--out', 'out.jsonl'], dir);
  const diff = run([verb, '--diff', 's.jsonl'], dir);
  expect(readFileSync(join(dir, 's.jsonl')).equals(original)).toBe(true);
  if (written.code === 2) {
    expect(diff.code).toBe(2);
    return;
  }
  const expected = readFileSync(join(dir, 'out.jsonl'));
  if (expected.equals(original)) {
    expect(diff.stdout.length).toBe(0);
    expect(diff.code).toBe(written.code);
    return;
  }
  expect(diff.code).toBe(1);
  expect(applied(original, diff.stdout, 'patch').equals(expected)).toBe(true);
  if (GIT !== undefined) expect(applied(original, diff.stdout, 'git').equals(expected)).toBe(true);
}

/** A transcript with odd bytes put in at chosen places, its line endings CRLF or not, with or without a BOM and a final newline. */
const mutated = (bases: Buffer[]) => fc
  .record({
    base: fc.constantFrom(...bases),
    inserts: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ODD_BYTES)), { minLength: 1, maxLength: 4 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ base, inserts, crlf, bom, finalNewline }) => {
    let bytes = Buffer.from(base);
    if (crlf) bytes = Buffer.from(bytes.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    if (!finalNewline) bytes = bytes.subarray(0, bytes.length - (crlf ? 2 : 1));
    for (const [at, run] of inserts) {
      const place = at % (bytes.length + 1);
      bytes = Buffer.concat([bytes.subarray(0, place), Buffer.from(run), bytes.subarray(place)]);
    }
    return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) : bytes;
  });

describe('--diff is a diff of bytes', () => {
  it('GNU patch is at /usr/bin/patch, for the E18 tests to apply their diffs with', () => {
    expect(existsSync(PATCH), `${PATCH} is missing: install GNU patch to run these tests`).toBe(true);
    expect(spawnSync(PATCH, ['--version']).stdout.toString()).toMatch(/GNU patch/);
  });

  it('E18 — repair --diff of a file with invalid UTF-8, NUL, CRLF, a lone CR, no final newline or a BOM applies to exactly what repair --out writes', () => {
    const lines = BROKEN.toString('latin1').split('\n');
    lines[0] = lines[0]!.replace('"cwd":"', '"cwd":"\xff');
    lines[1] = lines[1]!.replace('"provider":"', '"provider":"\x00 a\rb ');
    const odd = Buffer.from(lines.join('\r\n').replace(/\r\n$/, ''), 'latin1');
    expect(odd.includes(0xff) && odd.includes(0x00)).toBe(true);
    checkDiff('repair', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), odd]));
  });

  it('E18 — canonicalize --diff of a file with an invalid UTF-8 byte applies with patch and gives what canonicalize --out writes', () => {
    const odd = Buffer.from(LEGACY.toString('latin1').replace('"Let me check.', '"\xfe\xffLet me check.'), 'latin1');
    expect(odd.includes(0xfe)).toBe(true);
    checkDiff('canonicalize', odd);
  });

  it('E18 — a healthy file with an invalid byte: the diff shows the byte repair replaces, and applies', () => {
    const odd = Buffer.from(HEALTHY.toString('latin1').replace('merge', 'mer\xffge'), 'latin1');
    checkDiff('repair', odd);
  });

  it('E18 — a header repair writes gets the same time in --diff and --out: the file\'s, not the clock\'s', () => {
    // Broken keys on the first line make it unreadable as a header and hide its time, so repair writes
    // a header with no time in reach; the new line's time must not depend on when the command ran.
    const text = BROKEN.toString('latin1').replace('{"type":"session"', '{"ty\xffpe":"session"').replace('"timestamp"', '"time\xffstamp"');
    const odd = Buffer.from(text, 'latin1');
    expect(odd.includes(0xff)).toBe(true);
    checkDiff('repair', odd);
  });

  it('E18 — a file repair leaves as it is gives no diff and the exit code repair gives without --diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-diff-clean-'));
    // An error repair cannot settle (the config makes the warning one): nothing changes, and repair exits 1.
    const original = fixture('ambiguous-tool-shape.jsonl');
    writeFileSync(join(dir, 's.jsonl'), original);
    writeFileSync(join(dir, 'config.json'), '{"rules":{"ambiguous-tool-shape":"error"}}');
    const plain = await runCli(['repair', '-c', 'config.json', 's.jsonl', '--out', 'out.jsonl'], { cwd: dir });
    expect(plain.code).toBe(1);
    expect(readFileSync(join(dir, 'out.jsonl')).equals(original)).toBe(true);
    expect(await runCli(['repair', '-c', 'config.json', '--diff', 's.jsonl'], { cwd: dir })).toMatchObject({ code: 1, stdout: '' });
    copyFileSync(join(ROOT, 'fixtures', 'pi', 'healthy.jsonl'), join(dir, 'healthy.jsonl'));
    expect(await runCli(['repair', '--diff', 'healthy.jsonl'], { cwd: dir })).toMatchObject({ code: 0, stdout: '' });
  });

  it('E18 — property: over byte mutations, patch applied to the original gives what repair --out writes', () => {
    fc.assert(
      fc.property(mutated([BROKEN, HEALTHY, LEGACY]), (original) => checkDiff('repair', original)),
      // No shrinking: each step runs the CLI twice, and a failing case is printed as it is.
      { numRuns: 8, endOnFailure: true },
    );
  }, 240_000);

  it('E18 — property: the same for canonicalize --diff and canonicalize --out', () => {
    fc.assert(
      fc.property(mutated([LEGACY]), (original) => checkDiff('canonicalize', original)),
      { numRuns: 4, endOnFailure: true },
    );
  }, 240_000);
});
