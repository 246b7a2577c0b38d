import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const fixtures = ['pi', 'demo', 'claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'qwen-code'].flatMap((dir) => readdirSync(join(ROOT, 'fixtures', dir)).filter((n) => n.endsWith('.jsonl')).map((n) => `fixtures/${dir}/${n}`));

/** Large files are decoded by two threads; forcing that on every fixture must change nothing. */
describe('two-thread decoding', () => {
  it('gives exactly the single-thread report for every fixture', async () => {
    // One file at a time (--jobs 1): threads that each scan whole files never split one.
    const args = ['scan', ...fixtures, '--jobs', '1', '-r', 'json'];
    const single = await runCli(args, { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(args, { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' } });
    expect(split.stderr).toBe('');
    expect(JSON.parse(split.stdout)).toEqual(JSON.parse(single.stdout));
  });

  it('repairs the same way', async () => {
    const file = 'fixtures/demo/e0b11ca0-75b4-4eef-8961-955e55832882.jsonl';
    const single = await runCli(['repair', file], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(['repair', file], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' } });
    expect(split.stdout).toBe(single.stdout);
    expect(split.stdout.length).toBeGreaterThan(0);
  });

  it('finds a record written over several lines, and a torn line with a record after it, in either half', async () => {
    const lines = readFileSync(join(ROOT, 'fixtures', 'pi', 'healthy.jsonl'), 'utf8').split('\n').slice(0, -1);
    const cut = (i: number) => JSON.stringify({ ...JSON.parse(lines[i]!), note: 'one\ntwo\nthree' }).replaceAll('\\n', '\n');
    const damaged = [...lines.slice(0, 5), cut(5), lines[6]!.slice(0, 30) + lines[7], ...lines.slice(8, 40), cut(40), lines[41]!.slice(0, 30) + lines[42], ...lines.slice(43)];
    const file = join(mkdtempSync(join(tmpdir(), 'td-parallel-')), 'damaged.jsonl');
    writeFileSync(file, damaged.map((line) => `${line}\n`).join(''));
    const single = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' } });
    const findings = JSON.parse(single.stdout).files[0].findings.filter((f: { rule: string }) => f.rule === 'invalid-json');
    expect(findings.map((f: { line: number }) => f.line)).toEqual([6, 9, 42, 45]);
    expect(JSON.parse(split.stdout)).toEqual(JSON.parse(single.stdout));
  });

  // Each half of a Gemini CLI log is decoded alone; the replay is settled once they are joined.
  it('settles a Gemini CLI log as one thread would: a copy far down the file wins over an earlier one', async () => {
    const fixture = readFileSync(join(ROOT, 'fixtures', 'gemini-cli', 'healthy.jsonl'), 'utf8').split('\n').slice(0, -1);
    // The answered copy of line 7 written again, unanswered, after many lines: the split falls between them.
    const padding = Array.from({ length: 60 }, (_, i) => JSON.stringify({ $set: { lastUpdated: `2026-03-09T15:${String(i).padStart(2, '0')}:00.000Z` } }));
    const executing = JSON.parse(fixture[6]!);
    for (const call of executing.toolCalls) {
      delete call.result;
      call.status = 'executing';
    }
    const file = join(mkdtempSync(join(tmpdir(), 'td-parallel-')), 'session-2026-03-09T14-00-3f9c2a71.jsonl');
    writeFileSync(file, [...fixture, ...padding, JSON.stringify(executing)].map((line) => `${line}\n`).join(''));
    const single = await runCli(['scan', file, '--jobs', '1', '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(['scan', file, '--jobs', '1', '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' } });
    const last = fixture.length + padding.length + 1;
    expect(JSON.parse(single.stdout).files[0].findings.map((f: { line: number; rule: string }) => `${f.line} ${f.rule}`)).toEqual([`${last} kept-history-pairing`, `${last} kept-history-pairing`]);
    expect(JSON.parse(split.stdout)).toEqual(JSON.parse(single.stdout));
    const repairs = await Promise.all(['single', 'split'].map(async (how) => {
      const env = how === 'single' ? { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } : { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' };
      const out = `${file}.${how}`;
      await runCli(['repair', file, '--out', out], { env });
      return readFileSync(out, 'utf8');
    }));
    expect(repairs[1]).toBe(repairs[0]);
    expect(repairs[0]).not.toBe(readFileSync(file, 'utf8'));
  });

  // Lines that are conversations of their own are judged, and planned for repair, by each thread for its half.
  it('judges and repairs a file of conversations as one thread would, with the project config and --provider', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-parallel-'));
    const lines = ['healthy', 'broken'].flatMap((kind) => readFileSync(join(ROOT, 'fixtures', 'requests', `openai-chat-${kind}.jsonl`), 'utf8').split('\n').slice(0, -1));
    // Every line several times over, each copy told apart, so the split falls among broken lines.
    const file = join(dir, 'dataset.jsonl');
    writeFileSync(file, Array.from({ length: 12 }, (_, copy) => lines.map((line) => line.replaceAll('"Hi"', `"Hi ${copy}"`))).flat().map((line) => `${line}\n`).join(''));
    writeFileSync(join(dir, 'transcript-doctor.config.json'), JSON.stringify({ rules: { 'duplicate-tool-result': 'off', 'missing-tool-result': 'warning' } }));
    const single = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) };
    const split = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' };
    for (const extra of [[], ['--provider', 'anthropic']]) {
      const args = ['scan', file, '-r', 'json', ...extra];
      const [one, two] = await Promise.all([runCli(args, { env: single, cwd: dir }), runCli(args, { env: split, cwd: dir })]);
      const findings = JSON.parse(one.stdout).files[0].findings as Array<{ rule: string; line: number; severity: string }>;
      expect(findings.some((f) => f.rule === 'missing-tool-result' && f.severity === 'warning' && f.line > lines.length * 6)).toBe(true);
      expect(findings.some((f) => f.rule === 'duplicate-tool-result')).toBe(false);
      expect(two.stderr).toBe('');
      expect(JSON.parse(two.stdout)).toEqual(JSON.parse(one.stdout));
    }
    const repaired = await Promise.all([single, split].map(async (env, k) => {
      const out = join(dir, `repaired-${k}.jsonl`);
      const run = await runCli(['repair', file, '--out', out, '-r', 'json'], { env, cwd: dir });
      return { bytes: readFileSync(out, 'utf8'), report: JSON.parse(run.stdout).files[0] };
    }));
    expect(repaired[0]!.bytes).not.toBe(readFileSync(file, 'utf8'));
    expect(repaired[1]!.bytes).toBe(repaired[0]!.bytes);
    const unnamed = (report: Record<string, unknown>) => ({ ...report, output: '', repair: { ...(report.repair as object), output: '' } });
    expect(unnamed(repaired[1]!.report)).toEqual(unnamed(repaired[0]!.report));
  });

  // The other thread finishes its small part long before this one and takes from this one's end, again and again.
  it('reads a file as one thread does when the other thread takes ranges from the first part', async () => {
    const [header, ...body] = readFileSync(join(ROOT, 'fixtures', 'pi', 'healthy.jsonl'), 'utf8').split('\n').slice(0, -1);
    const last = (JSON.parse(body.at(-1)!) as { id: string }).id;
    // Copies of the session, each with ids of its own, hung one after the other: some 24 MiB.
    const copies = Math.ceil((24 << 20) / body.join('\n').length);
    const copy = (c: number) => body.map((line) => line.replace(/"(id|parentId|toolCallId)":"([^"]+)"/g, `"$1":"$2-${c}"`).replace('"parentId":null', c === 0 ? '"parentId":null' : `"parentId":"${last}-${c - 1}"`));
    // A tool result lost in a copy near the middle and in the last: findings in ranges either thread may read.
    const result = body.findIndex((line) => line.includes('"role":"toolResult"'));
    const lost = [Math.floor(copies / 2), copies - 1];
    const lines = [header!, ...Array.from({ length: copies }, (_, c) => copy(c).filter((_, i) => i !== result || !lost.includes(c))).flat()];
    const file = join(mkdtempSync(join(tmpdir(), 'td-parallel-')), 'long.jsonl');
    writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
    const single = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0', TRANSCRIPT_DOCTOR_FIRST_SHARE: '0.97' } });
    expect(split.stderr).toBe('');
    const found = JSON.parse(single.stdout).files[0].findings as Array<{ rule: string; line: number }>;
    // Each lost result's call is found unanswered, on the line of the call that stays.
    const copyOf = (line: number) => Number(/"id":"[^"]+-(\d+)"/.exec(lines[line - 1]!)![1]);
    expect(new Set(found.filter((f) => f.rule === 'missing-tool-result').map((f) => copyOf(f.line)))).toEqual(new Set(lost));
    expect(JSON.parse(split.stdout)).toEqual(JSON.parse(single.stdout));
  });

  // The second thread starts mid-file: bytes that open its first line are that line's, not a byte order mark.
  it('reads a line that opens with U+FEFF at the split as one thread does', async () => {
    const lines = readFileSync(join(ROOT, 'fixtures', 'pi', 'healthy.jsonl'), 'utf8').split('\n').slice(0, -1);
    // After the first few lines, every line opens with U+FEFF: no line in the second half starts with `{`, so the split falls before one of these.
    const body = [...lines.slice(0, 3), ...lines.slice(3).map((line) => `\uFEFF${line}`)];
    const file = join(mkdtempSync(join(tmpdir(), 'td-parallel-')), 'bom-lines.jsonl');
    writeFileSync(file, body.map((line) => `${line}\n`).join(''));
    const single = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) } });
    const split = await runCli(['scan', file, '-r', 'json'], { env: { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' } });
    const invalid = JSON.parse(single.stdout).files[0].findings.filter((f: { rule: string }) => f.rule === 'invalid-json');
    expect(invalid.length).toBe(lines.length - 3);
    expect(JSON.parse(split.stdout)).toEqual(JSON.parse(single.stdout));
  });
});
