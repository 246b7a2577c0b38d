import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { splicedCopy } from '../../src/io/spliced-copy.js';
import { requestsFormat } from '../../src/formats/requests/index.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import type { Chunk } from '../../src/pipeline/passes.js';
import { planConversations, writeConversations } from '../../src/pipeline/rewrite-conversations.js';
import { repairRewrite, rewriteInput } from '../../src/pipeline/rewrite.js';
import { rules } from '../../src/rules/index.js';
import { runCli } from '../cli/run-cli.js';
// @ts-expect-error the bench's generator is a plain Node script
import { generateRequests } from '../../bench/requests.mjs';

/** A write that keeps a copy of every chunk's bytes in `chunks` (the writer reuses its buffers). */
const collect = (chunks: Buffer[]) => async (chunk: Chunk): Promise<void> => void chunks.push(...[chunk].flat().map((piece) => Buffer.from(piece)));

// A dataset whose changing lines the first read repaired is written as a copy with those lines
// put in (see writeSpliced). It must come out as the line-by-line second read writes it: the
// same file without its last line ending takes that read, which adds the ending back.

vi.mock('../../src/io/spliced-copy.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/io/spliced-copy.js')>();
  return { ...actual, splicedCopy: vi.fn(actual.splicedCopy) };
});

let dir: string;
let lines: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-spliced-repair-'));
  const file = join(dir, 'generated.jsonl');
  // Enough lines that both threads take part when they are forced; ~1.5% broken, plus lines broken by hand.
  await generateRequests(file, 3000, { seed: 41 });
  lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  const broken = [
    { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] }] },
    { messages: [{ role: 'user', content: 'go' }, { role: 'tool', tool_call_id: 'lost', content: 'stale' }, { role: 'assistant', content: 'done' }] },
    { input: [{ role: 'user', content: 'go' }, { type: 'function_call', call_id: 'c2', name: 'read', arguments: '{}' }] },
  ].map((line) => JSON.stringify(line));
  for (const [k, line] of broken.entries()) lines.splice(1 + k * 1000, 0, line);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function repaired(name: string, text: string, mode: 'discard' | 'synthetic') {
  const source = join(dir, `${name}.jsonl`);
  const out = join(dir, `${name}-${mode}.out.jsonl`);
  writeFileSync(source, text);
  vi.mocked(splicedCopy).mockClear();
  const report = await rewriteInput(source, undefined, repairRewrite(mode), { kind: 'file', path: out });
  return { report, bytes: readFileSync(out), spliced: vi.mocked(splicedCopy).mock.calls.length };
}

describe('a dataset written as a copy around its repaired lines', () => {
  for (const [name, eol, blank] of [['lf', '\n', false], ['crlf with blank lines', '\r\n', true]] as const) {
    it(`comes out as the line-by-line write makes it (${name}), in both modes`, async () => {
      const body = lines.map((line, n) => (blank && n % 500 === 7 ? `${line}${eol}   ` : line)).join(eol);
      for (const mode of ['discard', 'synthetic'] as const) {
        const copied = await repaired(`${name}-copied`, body + eol, mode);
        const lineByLine = await repaired(`${name}-line-by-line`, body, mode);
        expect(copied.spliced).toBe(1);
        expect(lineByLine.spliced).toBe(0);
        expect(copied.bytes.equals(lineByLine.bytes)).toBe(true);
        expect(copied.report.repair!.changed).toBe(true);
        expect(copied.report.repair!.counts).toEqual(lineByLine.report.repair!.counts);
        expect(copied.report.repair!.lines).toEqual(lineByLine.report.repair!.lines);
        expect(copied.report.findings).toEqual(lineByLine.report.findings);
        expect(copied.report.repair!.lines.rewritten.length).toBeGreaterThan(30);
      }
    });
  }

  it('reads a file that grew since the first read line by line, and keeps what was added', async () => {
    const source = join(dir, 'growing.jsonl');
    writeFileSync(source, lines.slice(0, 200).join('\n') + '\n');
    const how = { mode: 'discard' as const };
    const plan = planConversations(how, rules);
    const transcript = await loadTranscriptFile(source, requestsFormat, false, plan);
    expect(plan.changing.size).toBeGreaterThan(0);
    const added = JSON.stringify({ messages: [{ role: 'user', content: 'written after the first read' }] });
    appendFileSync(source, added + '\n');
    vi.mocked(splicedCopy).mockClear();
    const chunks: Buffer[] = [];
    await writeConversations({ path: source, transcript, format: requestsFormat }, plan, how, rules, collect(chunks));
    expect(vi.mocked(splicedCopy)).not.toHaveBeenCalled();
    expect(Buffer.concat(chunks).toString().endsWith(added + '\n')).toBe(true);
  });

  it('repairs in the second read the changing lines the first read did not keep (past its budget), to the same bytes', async () => {
    const source = join(dir, 'budget.jsonl');
    writeFileSync(source, lines.slice(0, 1500).join('\n') + '\n');
    const how = { mode: 'synthetic' as const };
    const written = async (forget: boolean): Promise<Buffer> => {
      const plan = planConversations(how, rules);
      const transcript = await loadTranscriptFile(source, requestsFormat, false, plan);
      expect(plan.repaired.size).toBeGreaterThan(10);
      if (forget) plan.repaired.clear();
      const chunks: Buffer[] = [];
      await writeConversations({ path: source, transcript, format: requestsFormat }, plan, how, rules, collect(chunks));
      return Buffer.concat(chunks);
    };
    const kept = await written(false);
    expect((await written(true)).equals(kept)).toBe(true);
    expect(kept.equals(readFileSync(source))).toBe(false);
  });

  it('puts in the lines each thread repaired, as one thread does', async () => {
    const source = join(dir, 'threads.jsonl');
    writeFileSync(source, lines.join('\n') + '\n');
    const outputs = [];
    for (const [name, env] of [['one', { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(2 ** 40) }], ['two', { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' }]] as const) {
      const out = join(dir, `threads-${name}.out.jsonl`);
      const run = await runCli(['repair', source, '--out', out, '-r', 'json'], { env });
      expect(run.stderr).toBe('');
      outputs.push({ report: JSON.parse(run.stdout).files[0], bytes: readFileSync(out) });
    }
    expect(outputs[1]!.bytes.equals(outputs[0]!.bytes)).toBe(true);
    expect({ ...outputs[1]!.report, output: '' }).toEqual({ ...outputs[0]!.report, output: '' });
    expect(Object.values(outputs[0]!.report.counts as Record<string, number>).reduce((sum, count) => sum + count)).toBeGreaterThan(30);
  });
});
