import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const LEGACY = 'fixtures/pi/legacy-shapes.jsonl';

/** `a | b | c` with the real bin, like a shell pipeline. */
function pipe(input: Buffer, ...stages: string[][]): Promise<{ stdout: string; codes: number[] }> {
  return new Promise((resolve, reject) => {
    const bin = join(ROOT, 'bin', 'transcript-doctor.js');
    const children = stages.map((args) => spawn(process.execPath, [bin, ...args], { cwd: ROOT, env: { ...process.env, CI: '1' } }));
    children.forEach((child, i) => (i === 0 ? child.stdin.end(input) : children[i - 1]!.stdout.pipe(child.stdin)));
    let stdout = '';
    children.at(-1)!.stdout.on('data', (chunk) => (stdout += chunk));
    Promise.all(children.map((child) => new Promise<number>((done) => child.on('close', (code) => done(code ?? -1)))))
      .then((codes) => resolve({ stdout, codes }))
      .catch(reject);
  });
}

describe('transcript-doctor canonicalize', () => {
  it('--check lists each non-canonical line and exits 1, like prettier --check', async () => {
    const result = await runCli(['canonicalize', '--check', LEGACY, 'fixtures/pi/healthy.jsonl', '-r', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.files[0].findings.map((f: { rule: string; line: number; pointer: string }) => `${f.line} ${f.pointer} ${f.rule}`)).toEqual([
      '30 /message/content/1 non-canonical-tool-call',
      '31 /message non-canonical-tool-result',
      '36 /message/content/0 non-canonical-tool-call',
    ]);
    expect(report.files[1].findings).toEqual([]);
    expect(readFileSync(LEGACY, 'utf8')).toContain('"toolUse"');
  });

  it('--check exits 0 on canonical files', async () => {
    expect((await runCli(['canonicalize', '--check', 'fixtures/pi/healthy.jsonl'])).code).toBe(0);
  });

  it('scan warns about legacy shapes but finds no pairing error in them', async () => {
    const report = JSON.parse((await runCli(['scan', LEGACY, '-r', 'json'])).stdout);
    expect(report.summary).toEqual({ files: 1, errors: 0, warnings: 3 });
  });

  it('cat legacy.jsonl | canonicalize - | repair - gives a clean transcript', async () => {
    const broken = Buffer.concat([readFileSync(LEGACY), readFileSync('fixtures/pi/non-canonical-tool-result.jsonl').subarray(0, 0)]);
    const { stdout, codes } = await pipe(broken, ['canonicalize', '-'], ['repair', '-']);
    expect(codes).toEqual([0, 0]);
    const scan = await runCli(['scan', '-', '-r', 'json'], { input: stdout });
    expect(JSON.parse(scan.stdout).summary).toEqual({ files: 1, errors: 0, warnings: 0 });
  });

  it('round trip: canonicalizing any fixture adds no pairing finding', async () => {
    // Three runs over every fixture at once: a run per fixture is some 100 process starts.
    const out = mkdtempSync(join(tmpdir(), 'td-canonical-'));
    expect((await runCli(['canonicalize', 'fixtures/pi', '--out', out])).code).not.toBe(2);
    const pairing = async (folder: string) => {
      const report = JSON.parse((await runCli(['scan', folder, '-r', 'json'])).stdout) as { files: Array<{ path: string; findings: Array<{ rule: string }> }> };
      return new Map(report.files.map((file) => [basename(file.path), file.findings.map((finding) => finding.rule).filter((rule) => !rule.startsWith('non-canonical'))]));
    };
    const [before, after] = await Promise.all([pairing('fixtures/pi'), pairing(out)]);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, rules] of after) for (const rule of rules) expect(before.get(file), `${file}: ${rule}`).toContain(rule);
  });
});
