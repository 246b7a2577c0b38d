import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

// The bench's generators and measuring children, run as the bench runs them (plain Node scripts).
// What matters: the real-shaped files have the line sizes of real sessions, the big-line files
// are still byte for byte the ones earlier figures were measured on, and every child reports
// what it claims to.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-bench-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(args: string[], options: { nodeArgs?: string[] } = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const md5 = (file: string) => createHash('md5').update(readFileSync(file)).digest('hex');

function quantiles(file: string): { p25: number; p50: number; p75: number; p90: number; lines: string[] } {
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  const sorted = lines.map((line) => Buffer.byteLength(line)).sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.floor(p * sorted.length)]!;
  return { p25: q(0.25), p50: q(0.5), p75: q(0.75), p90: q(0.9), lines };
}

describe('bench/generate.mjs', () => {
  it('keeps the big-line shape byte for byte as it was (its rows compare with earlier runs)', () => {
    const file = join(dir, 'big.jsonl');
    expect(node(['bench/generate.mjs', file, '2MB']).code).toBe(0);
    expect(md5(file)).toBe('afdb4c1c58f094709ad0ffc6d1360efc');
    const twin = join(dir, 'big.cc.jsonl');
    expect(node(['bench/to-claude-code.mjs', file, twin]).code).toBe(0);
    expect(md5(twin)).toBe('f7680dc5488a55de8147a15c7eb36251');
  });

  it('gives real-shaped sessions the line sizes of real pi sessions, and a valid, replayable tree', () => {
    const file = join(dir, 'real.jsonl');
    const generated = node(['bench/generate.mjs', file, '6MB', '--shape', 'real']);
    expect(generated.code).toBe(0);
    writeFileSync(join(dir, 'real.meta.json'), generated.stdout);
    // Measured over shared/corpus/pi: p25 479, median 751, p75 1,349, p90 2,691 bytes.
    const q = quantiles(file);
    expect(q.p25).toBeGreaterThan(479 * 0.85);
    expect(q.p25).toBeLessThan(479 * 1.15);
    expect(q.p50).toBeGreaterThan(751 * 0.85);
    expect(q.p50).toBeLessThan(751 * 1.15);
    expect(q.p75).toBeGreaterThan(1349 * 0.85);
    expect(q.p75).toBeLessThan(1349 * 1.15);
    expect(q.p90).toBeGreaterThan(2691 * 0.75);
    expect(q.p90).toBeLessThan(2691 * 1.25);
    // Many short tool calls and results, and a few huge outputs.
    const roles = q.lines.map((line) => (JSON.parse(line) as { message?: { role?: string } }).message?.role);
    expect(roles.filter((role) => role === 'toolResult').length).toBeGreaterThan(q.lines.length * 0.35);
    expect(Math.max(...q.lines.map((line) => line.length))).toBeGreaterThan(25_000);
    const validated = node(['bench/validate.mjs', file, join(dir, 'real.meta.json')]);
    expect(validated.stdout.trim().split('\n').at(-1)).toBe('OK');
    expect(validated.code).toBe(0);
  });

  it('rejects an unknown shape with a usage line', () => {
    const r = node(['bench/generate.mjs', join(dir, 'x.jsonl'), '1MB', '--shape', 'tiny']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^usage: /);
  });
});

describe('bench/to-claude-code.mjs --real', () => {
  it('writes Claude Code lines of real length that the scanner reads as Claude Code, with every result tied to its call', () => {
    const pi = join(dir, 'cc-source.jsonl');
    const meta = JSON.parse(node(['bench/generate.mjs', pi, '3MB', '--shape', 'real', '--seed', '5']).stdout) as { problems: { unansweredToolCalls: number } };
    const file = join(dir, 'cc.jsonl');
    expect(node(['bench/to-claude-code.mjs', pi, file, '--real']).code).toBe(0);
    const q = quantiles(file);
    // Measured over shared/corpus/claude-code: median 1,134 bytes.
    expect(q.p50).toBeGreaterThan(1134 * 0.85);
    expect(q.p50).toBeLessThan(1134 * 1.15);
    const values = q.lines.map((line) => JSON.parse(line) as Record<string, unknown> & { message?: { content?: unknown } });
    const uuids = new Set(values.map((value) => value.uuid).filter((uuid) => uuid !== undefined));
    const results = values.filter((value) => Array.isArray(value.message?.content) && (value.message!.content as Array<{ type: string }>)[0]?.type === 'tool_result');
    expect(results.length).toBeGreaterThan(100);
    for (const result of results) {
      expect(result.toolUseResult).toBeDefined();
      expect(uuids.has(result.sourceToolAssistantUUID as string)).toBe(true);
    }
    expect(values.filter((value) => value.type === 'file-history-snapshot').length).toBeGreaterThan(10);
    const scan = node(['bin/transcript-doctor.js', 'scan', file, '-r', 'json']);
    const report = JSON.parse(scan.stdout) as { files: Array<{ format: string; findings: Array<{ rule: string }> }> };
    expect(report.files[0]!.format).toBe('claude-code');
    expect(report.files[0]!.findings.filter((finding) => finding.rule === 'missing-tool-result').length).toBe(meta.problems.unansweredToolCalls);
  });
});

describe('bench/projects.mjs', () => {
  it('makes a projects folder of Claude Code sessions split into two halves that cover it', () => {
    const r = node(['bench/projects.mjs', '12', '--root', dir]);
    expect(r.code).toBe(0);
    const projects = JSON.parse(r.stdout) as { dir: string; files: number; bytes: number; halves: Array<{ projects: string[]; bytes: number }> };
    const folders = readdirSync(projects.dir).filter((name) => !name.startsWith('.'));
    expect([...projects.halves[0]!.projects, ...projects.halves[1]!.projects].sort()).toEqual(folders.sort());
    expect(projects.halves[0]!.bytes + projects.halves[1]!.bytes).toBe(projects.bytes);
    const scan = node(['bin/transcript-doctor.js', 'scan', projects.dir, '-r', 'json']);
    const report = JSON.parse(scan.stdout) as { summary: { files: number }; files: Array<{ format: string }> };
    expect(report.summary.files).toBe(12);
    expect(new Set(report.files.map((file) => file.format))).toEqual(new Set(['claude-code']));
    // Cached: asking again returns the same folder without writing it anew.
    expect(JSON.parse(node(['bench/projects.mjs', '12', '--root', dir]).stdout)).toEqual(projects);
  });
});

describe('bench/explain.mjs', () => {
  it('makes a home of sessions and times explain from an error text to the session it came from', () => {
    const r = node(['bench/explain.mjs', '24', '--root', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const marker = readdirSync(dir).find((name) => name.startsWith('explain-home-24-'))!;
    const meta = JSON.parse(readFileSync(join(dir, marker, '.complete'), 'utf8')) as { files: number; target: { file: string; line: number; error: string } };
    expect(meta.files).toBe(24);
    expect(meta.target.error).toMatch(/^messages\.\d+: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_/);
    // Each run checks that explain named the target's file and line; the row ends with the median.
    expect(r.stdout.split('\n').filter((line) => line.endsWith(`${meta.target.file.split('/').at(-1)}:${meta.target.line}`))).toHaveLength(4);
    expect(r.stdout).toMatch(/median \d+\.\d\d s to find the session \(target ≤ 5 s\)/);
  });
});

describe('bench children', () => {
  it('baseline.mjs parses every line of every file under a folder', () => {
    const sub = join(dir, 'baseline');
    const pi = join(dir, 'baseline-source.jsonl');
    node(['bench/generate.mjs', pi, '256KB', '--shape', 'real']);
    const lines = readFileSync(pi, 'utf8').split('\n').filter((line) => line !== '').length;
    spawnSync('mkdir', ['-p', join(sub, 'a', 'b')]);
    writeFileSync(join(sub, 'one.jsonl'), readFileSync(pi));
    writeFileSync(join(sub, 'a', 'b', 'two.jsonl'), readFileSync(pi));
    writeFileSync(join(sub, 'a', 'notes.txt'), 'not a transcript\n');
    const r = JSON.parse(node(['bench/baseline.mjs', sub]).stdout) as { lines: number; files: number };
    expect(r).toMatchObject({ lines: 2 * lines, files: 2 });
  });

  it('retained.mjs counts the entries of a loaded transcript and the heap they keep', () => {
    const file = join(dir, 'retained.jsonl');
    node(['bench/generate.mjs', file, '8MB', '--shape', 'real', '--seed', '9']);
    const r = node(['bench/retained.mjs', file], { nodeArgs: ['--expose-gc'] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { entries: number; lines: number; heapBytes: number; externalBytes: number; bytesPerEntry: number };
    expect(out.entries).toBe(quantiles(file).lines.length);
    // Most of a transcript is typed-array columns (external); the heap alone moves by GC noise either way.
    expect(out.heapBytes + out.externalBytes).toBeGreaterThan(0);
    expect(out.bytesPerEntry).toBeGreaterThan(0);
    expect(node(['bench/retained.mjs', file]).code).toBe(2); // without --expose-gc it cannot measure
  });

  it('ceiling.mjs times the build beside one that parses every line twice, which reports the same', () => {
    const file = join(dir, 'ceiling.jsonl');
    node(['bench/generate.mjs', file, '2MB', '--shape', 'real', '--seed', '4']);
    const r = node(['bench/ceiling.mjs', '1', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [header, row, ...rest] = r.stdout.trim().split('\n');
    expect(header).toMatch(/^file \| baseline s .* \| bound \| compile ms/);
    expect(rest).toEqual([]);
    const cells = row!.split(' | ');
    expect(cells[0]).toBe('ceiling.jsonl');
    // baseline, scan (ratio), twice, decode + parse, bound, then compile ms for one thread and two.
    expect(cells).toHaveLength(8);
    expect(Number(cells[1])).toBeGreaterThan(0);
    expect(cells[2]).toMatch(/^\d+\.\d\d \(\d+\.\d\d\)$/);
    expect(Number(cells[3])).toBeGreaterThan(0);
    // On a file this small the difference is mostly noise: only that each is a number.
    for (const cell of cells.slice(4)) expect(cell).toMatch(/^-?\d+(\.\d+)?$/);
  });

  it('threads.mjs times one thread against two with their CPU and page faults, and stops when a scan fails', () => {
    const file = join(dir, 'threads.jsonl');
    node(['bench/generate.mjs', file, '2MB', '--shape', 'real', '--seed', '6']);
    // A threshold of one byte lets the two-thread runs split this small file; the one-thread runs override it.
    const r = spawnSync(process.execPath, ['bench/threads.mjs', '1', file], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [runs, header, row, ...rest] = r.stdout.trim().split('\n');
    expect(runs).toBe('1 runs each, alternating');
    expect(header).toMatch(/^file \| one thread: .* \| two threads: .* \| speed-up \| CPU added$/);
    expect(rest).toEqual([]);
    const cells = row!.split(' | ');
    expect(cells[0]).toBe('threads.jsonl');
    for (const cell of [cells[1], cells[2]]) {
      const [wall, cpu, faults] = cell!.split(', ').map(Number);
      expect(wall).toBeGreaterThan(0);
      expect(cpu).toBeGreaterThanOrEqual(0);
      expect(faults).toBeGreaterThan(0);
    }
    expect(Number(cells[3])).toBeCloseTo(Number(cells[1]!.split(', ')[0]) / Number(cells[2]!.split(', ')[0]), 1);
    expect(cells[4]).toMatch(/^-?\d+\.\d\d s$/);
    const broken = node(['bench/threads.mjs', '1', join(dir, 'no-such-file.jsonl')]);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain('exited 2');
  });

  it('measure.mjs gives a child that ran alone its CPU time, and none to children that ran side by side', async () => {
    // A variable specifier: the bench's modules are plain JavaScript without type declarations.
    const measure = join(ROOT, 'bench', 'measure.mjs');
    type Run = { code: number | null; wallMs: number; cpuMs: number | null };
    const { childRunner } = (await import(measure)) as { childRunner: (tmp: string) => { runNode: (args: string[]) => Promise<Run> } };
    const c = childRunner(dir);
    // 400 ms of the child's own CPU, however busy the machine; clock ticks are 10 ms.
    const busy = ['-e', 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 400e3);'];
    const alone = await c.runNode(busy);
    expect(alone.code).toBe(0);
    expect(alone.cpuMs).toBeGreaterThanOrEqual(390);
    // Its own use only, not this process's: at most both cores for as long as it ran.
    expect(alone.cpuMs!).toBeLessThanOrEqual(2 * alone.wallMs + 20);
    const both = await Promise.all([c.runNode(busy), c.runNode(busy)]);
    expect(both.map((r) => r.cpuMs)).toEqual([null, null]);
    expect((await c.runNode(['-e', '0'])).cpuMs).not.toBeNull();
  });

  it('startup.mjs times both commands and fails loudly when the scan does not answer', () => {
    const ok = node(['bench/startup.mjs', '1']);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout) as { runs: number; wallRatio: number; bare: { wallMs: number }; scan: { wallMs: number }; unbundled: { wallMs: number; wallRatio: number } };
    expect(out.runs).toBe(1);
    expect(out.wallRatio).toBe(out.scan.wallMs / out.bare.wallMs);
    expect(out.unbundled.wallRatio).toBe(out.unbundled.wallMs / out.bare.wallMs);
    const broken = node(['bench/startup.mjs', '1', join(dir, 'no-such-cli.js')]);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain('exited');
  });
});

describe('bench/to-codex.mjs', () => {
  it('writes a rollout the scanner reads as Codex, with every output after its call and the generator’s breaks found', () => {
    const pi = join(dir, 'codex-source.jsonl');
    const meta = JSON.parse(node(['bench/generate.mjs', pi, '3MB', '--shape', 'real', '--seed', '5']).stdout) as { turns: number; problems: { unansweredToolCalls: number } };
    const file = join(dir, 'codex.jsonl');
    expect(node(['bench/to-codex.mjs', pi, file]).code).toBe(0);
    const values = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { type: string; payload: { type?: string; role?: string; call_id?: string } });
    expect(values[0]!.type).toBe('session_meta');
    const called = new Set<string>();
    for (const { payload } of values) {
      if (payload.type === 'function_call') called.add(payload.call_id!);
      if (payload.type === 'function_call_output') expect(called.has(payload.call_id!)).toBe(true);
    }
    expect(called.size).toBeGreaterThan(100);
    expect(values.filter((value) => value.payload.role === 'user').length).toBeGreaterThanOrEqual(meta.turns);
    expect(values.filter((value) => value.payload.type === 'token_count').length).toBeGreaterThan(called.size / 2);
    const scan = node(['bin/transcript-doctor.js', 'scan', file, '-r', 'json']);
    const report = JSON.parse(scan.stdout) as { files: Array<{ format: string; findings: Array<{ rule: string }> }> };
    expect(report.files[0]!.format).toBe('codex');
    expect(report.files[0]!.findings.filter((finding) => finding.rule === 'missing-tool-result').length).toBe(meta.problems.unansweredToolCalls);
  });
});

describe('bench/to-qwen-code.mjs', () => {
  it('writes a session the scanner reads as Qwen Code, with real line sizes, one chain, and the generator’s breaks found', () => {
    const pi = join(dir, 'qwen-source.jsonl');
    const meta = JSON.parse(node(['bench/generate.mjs', pi, '3MB', '--shape', 'real', '--seed', '5']).stdout) as { turns: number; problems: { unansweredToolCalls: number } };
    const file = join(dir, 'qwen.jsonl');
    expect(node(['bench/to-qwen-code.mjs', pi, file]).code).toBe(0);
    const { p50, lines } = quantiles(file);
    // Median over shared/corpus/qwen-code is ~700 bytes.
    expect(p50).toBeGreaterThan(600);
    expect(p50).toBeLessThan(900);
    const records = lines.map((line) => JSON.parse(line) as { uuid: string; parentUuid: string | null; type: string; message?: { parts: Array<{ functionCall?: { id: string }; functionResponse?: { id: string } }> } });
    const uuids = new Set<string>();
    const called = new Set<string>();
    for (const record of records) {
      if (record.parentUuid !== null) expect(uuids.has(record.parentUuid)).toBe(true);
      uuids.add(record.uuid);
      for (const part of record.message?.parts ?? []) {
        if (part.functionCall) called.add(part.functionCall.id);
        if (part.functionResponse) expect(called.has(part.functionResponse.id)).toBe(true);
      }
    }
    expect(called.size).toBeGreaterThan(100);
    expect(records.filter((record) => record.type === 'user').length).toBeGreaterThanOrEqual(meta.turns);
    const scan = node(['bin/transcript-doctor.js', 'scan', file, '-r', 'json']);
    const report = JSON.parse(scan.stdout) as { files: Array<{ format: string; findings: Array<{ rule: string }> }> };
    expect(report.files[0]!.format).toBe('qwen-code');
    expect(report.files[0]!.findings.filter((finding) => finding.rule === 'missing-tool-result').length).toBe(meta.problems.unansweredToolCalls);
  });
});
