import { createReadStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalize, failingFiles, InputsFailedError, repair, scan, UserError, verify } from '../../src/index.js';
import { ROOT, runCli } from '../cli/run-cli.js';
import { startFakeProvider } from '../verify/llm/fake-provider.js';

const BROKEN = 'fixtures/pi/missing-tool-result.jsonl';
const HEALTHY = 'fixtures/pi/healthy.jsonl';
const LEGACY = 'fixtures/pi/legacy-shapes.jsonl';

const tempDir = () => mkdtempSync(join(tmpdir(), 'td-api-'));
const lines = (path: string) => readFileSync(join(ROOT, path), 'utf8').split('\n').filter((line) => line !== '');

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('scan()', () => {
  it('resolves to exactly the document scan -r json prints, for paths, folders and globs', async () => {
    for (const input of [[BROKEN, HEALTHY], 'fixtures/pi', 'fixtures/pi/*.jsonl']) {
      const cli = await runCli(['scan', ...(Array.isArray(input) ? input : [input]), '-r', 'json']);
      const report = await scan(input, { jobs: 1 });
      expect(report).toEqual(JSON.parse(cli.stdout));
    }
  });

  it('reads a Readable and an async iterable of lines the way scan - reads standard input', async () => {
    const cli = JSON.parse((await runCli(['scan', '-', '-r', 'json'], { input: readFileSync(join(ROOT, BROKEN)) })).stdout);
    expect(await scan(createReadStream(join(ROOT, BROKEN)))).toEqual(cli);
    async function* iterate() {
      for (const line of lines(BROKEN)) yield line;
    }
    expect(await scan(iterate())).toEqual(cli);
    // Lines that keep their own endings are not doubled; a sync iterable (not an array: that is paths) works too.
    expect(await scan(Readable.from(lines(BROKEN).map((line) => `${line}\n`)))).toEqual(cli);
    expect(await scan(lines(BROKEN).map((line) => Buffer.from(`${line}\r\n`)).values())).toEqual(cli);
    expect(cli.summary.errors).toBeGreaterThan(0);
  });

  it('takes the command line options: baseline, quiet, shard, format', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'baseline.json');
    await scan(BROKEN, { writeBaseline: baseline });
    expect((await scan(BROKEN, { baseline })).summary.errors).toBe(0);
    const quiet = await scan('fixtures/demo', { quiet: true });
    expect(quiet.files.flatMap((file) => file.findings).every((finding) => finding.severity === 'error')).toBe(true);
    const all = (await scan('fixtures/pi')).files.map((file) => file.path);
    const shards = await Promise.all([1, 2, 3].map((i) => scan('fixtures/pi', { shard: `${i}/3` })));
    expect(shards.flatMap((report) => report.files.map((file) => file.path)).sort()).toEqual([...all].sort());
    await expect(scan(BROKEN, { format: 'nope' })).rejects.toThrow(/unknown format "nope"/);
    await expect(scan(BROKEN, { jobs: 0 })).rejects.toThrow('--jobs must be a whole number ≥ 1, not "0"');
    await expect(scan(BROKEN, { shard: '4/3' })).rejects.toThrow(UserError);
  });

  it('rejects bad inputs with a UserError, and a missing file with an InputsFailedError', async () => {
    await expect(scan(42 as never)).rejects.toThrow(/input must be a path/);
    await expect(scan([])).rejects.toThrow(/one or more paths/);
    await expect(scan([1, 2] as never)).rejects.toThrow(UserError);
    await expect(scan([{}].values() as never)).rejects.toThrow(/string or bytes/);
    await expect(scan('no/such/file.jsonl')).rejects.toThrow('no/such/file.jsonl: no such file or directory');
  });

  it('failingFiles names the files the exit code counts', async () => {
    const report = await scan('fixtures/demo');
    const strict = failingFiles(report, { maxWarnings: 0 });
    const errors = failingFiles(report);
    expect(errors.length).toBeGreaterThan(0);
    expect(strict.length).toBeGreaterThanOrEqual(errors.length);
    const cli = await runCli(['scan', 'fixtures/demo', '-l']);
    expect(cli.stdout).toBe(errors.map((path) => `${path}\n`).join(''));
  });
});

describe('repair() and canonicalize()', () => {
  it('repair writes to a path and reports as repair -r json does', async () => {
    const dir = tempDir();
    const report = await repair(BROKEN, { output: join(dir, 'fixed.jsonl'), mode: 'synthetic' });
    const cli = await runCli(['repair', BROKEN, '-m', 'synthetic', '--out', join(dir, 'cli.jsonl'), '-r', 'json']);
    expect(readFileSync(join(dir, 'fixed.jsonl'))).toEqual(readFileSync(join(dir, 'cli.jsonl')));
    expect({ ...report, files: report.files.map((file) => ({ ...file, output: null })) }).toEqual({
      ...JSON.parse(cli.stdout),
      files: JSON.parse(cli.stdout).files.map((file: object) => ({ ...file, output: null })),
    });
    expect(report.files[0]!.changed).toBe(true);
    expect((await scan(join(dir, 'fixed.jsonl'))).summary.errors).toBe(0);
  });

  it('repair writes a stream input to a Writable, untouched when already healthy', async () => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    const report = await repair(Readable.from(readFileSync(join(ROOT, HEALTHY))), { output: sink });
    expect(Buffer.concat(chunks)).toEqual(readFileSync(join(ROOT, HEALTHY)));
    expect(report.files[0]).toMatchObject({ path: '-', changed: false, output: '-' });
  });

  it('repair in place and as a dry run; refuses an ambiguous target', async () => {
    const dir = tempDir();
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, readFileSync(join(ROOT, BROKEN)));
    const dry = await repair(file, { dryRun: true });
    expect(dry.files[0]!.changed).toBe(true);
    expect(readFileSync(file)).toEqual(readFileSync(join(ROOT, BROKEN)));
    const done = await repair(file, { inPlace: true, backup: false });
    expect(done.files[0]).toMatchObject({ changed: true, backup: null });
    expect((await scan(file)).summary.errors).toBe(0);
    await expect(repair(file, {})).rejects.toThrow('repair needs output, inPlace or dryRun');
    await expect(repair(file, { inPlace: true, dryRun: true })).rejects.toThrow('choose one of --in-place, --dry-run');
    await expect(repair(file, { dryRun: true, mode: 'maybe' as never })).rejects.toThrow('--mode must be discard or synthetic, not "maybe"');
    await expect(repair(['-'], { inPlace: true })).rejects.toThrow('--in-place cannot write back to standard input');
  });

  it('keeps the report of the files it could repair when one fails', async () => {
    const dir = tempDir();
    const locked = join(dir, 'a.jsonl');
    writeFileSync(locked, readFileSync(join(ROOT, BROKEN)));
    writeFileSync(`${locked}.lock`, JSON.stringify({ pid: process.pid }));
    const fine = join(dir, 'b.jsonl');
    writeFileSync(fine, readFileSync(join(ROOT, BROKEN)));
    const failure = await repair([locked, fine], { inPlace: true, backup: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputsFailedError);
    const { failures, report } = failure as InputsFailedError;
    expect(failures.map((f) => f.path)).toEqual([locked]);
    expect(report.files.map((f) => f.path)).toEqual([fine]);
    expect(readFileSync(locked)).toEqual(readFileSync(join(ROOT, BROKEN)));
  });

  it('canonicalize writes and checks as the command does', async () => {
    const dir = tempDir();
    const check = await canonicalize(LEGACY, { check: true });
    const cli = await runCli(['canonicalize', '--check', LEGACY, '-r', 'json']);
    expect(check).toEqual(JSON.parse(cli.stdout));
    expect(check.summary.errors + check.summary.warnings).toBeGreaterThan(0);
    await canonicalize(LEGACY, { output: join(dir, 'canonical.jsonl') });
    const again = await canonicalize(join(dir, 'canonical.jsonl'), { check: true });
    expect(again.files[0]!.findings).toEqual([]);
    await expect(canonicalize(LEGACY, { check: true, inPlace: true })).rejects.toThrow('--check writes nothing');
  });
});

describe('verify()', () => {
  it('judges against a local server and resolves to the verify -r json document', async () => {
    const server = await startFakeProvider(() => ({ text: 'Goal: met.\nPASS' }));
    close = server.close;
    const sent: string[] = [];
    const options = {
      model: 'anthropic/claude-sonnet-4-5',
      baseUrl: server.url,
      cache: false,
      rules: ['fixtures/verify/workspace/AGENTS.md'],
      onSend: (message: string) => sent.push(message),
    };
    const previous = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-key-000';
    try {
      const report = await verify('fixtures/verify/good-answer.jsonl', options);
      expect(report.summary).toMatchObject({ files: 1, pass: 1, fail: 0, error: 0 });
      expect(report.files[0]!.verdicts!.map((v) => v.verdict)).toEqual(['SKIPPED', 'SKIPPED', 'PASS']);
      expect(sent).toEqual([`sending transcript text to ${server.url} (anthropic/claude-sonnet-4-5); secrets are masked first`]);
      await expect(verify('fixtures/verify/good-answer.jsonl', { ...options, concurrency: 0 })).rejects.toThrow('--concurrency must be a whole number ≥ 1, not "0"');
    } finally {
      if (previous === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = previous;
    }
  });
});
