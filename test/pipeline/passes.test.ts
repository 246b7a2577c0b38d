import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AtomicFile } from '../../src/io/safe-write.js';
import { repairRewrite, rewriteInput } from '../../src/pipeline/rewrite.js';
import { repairBytes } from '../helpers/repair-tester.js';
import { call, Session } from '../helpers/session.js';

/** Sessions that settle in one pass, in a pass after split records, and after a write the next plan rejects. */
function cases(): Record<string, string> {
  const orphan = new Session().user('a').calls(call('call_1')).result('call_1').reply('b').result('call_gone').user('c').reply('d');
  const whole = new Session().user('one').reply('two').user('three').reply('four');
  const lines = [...whole.lines];
  lines.splice(2, 2, lines[2]! + lines[3]!);
  // Two entries share an id: whether one copies the other needs the bytes, so a plan made from the first output alone cannot be the last.
  const shared = new Session().user('a').reply('b').user('c', { id: 'dup00001' }).reply('d').user('c again', { id: 'dup00001' });
  shared.message({ role: 'toolResult', toolCallId: 'x', content: [{ type: 'text', text: 'late' }], isError: false });
  return { orphan: orphan.jsonl(), glued: lines.map((line) => `${line}\n`).join(''), shared: shared.jsonl() };
}

describe('repair passes: the target is written once the pass is known to be the last', () => {
  it.each(Object.entries(cases()))('%s: -o and --in-place write what a stream gets, and leave no temp file', async (_name, input) => {
    const streamed = (await repairBytes(input)).output;
    const folder = mkdtempSync(join(tmpdir(), 'td-passes-'));
    const source = join(folder, 'session.jsonl');
    writeFileSync(source, input);

    const output = join(folder, 'out.jsonl');
    const toFile = await rewriteInput(source, undefined, repairRewrite('discard'), { kind: 'file', path: output });
    expect(readFileSync(output)).toEqual(streamed);
    expect(toFile.repair.output).toBe(output);

    const inPlace = await rewriteInput(source, undefined, repairRewrite('discard'), { kind: 'in-place', backup: false, force: false });
    expect(readFileSync(source)).toEqual(streamed);
    expect(inPlace.findings).toEqual(toFile.findings);
    expect(readdirSync(folder).sort()).toEqual(['out.jsonl', 'session.jsonl']);
  });

  it('a dry run reports what the written runs report', async () => {
    const input = cases().shared;
    const folder = mkdtempSync(join(tmpdir(), 'td-passes-'));
    const source = join(folder, 'session.jsonl');
    writeFileSync(source, input);
    const dry = await rewriteInput(source, undefined, repairRewrite('discard'), { kind: 'dry-run' });
    expect(dry.findings).toEqual((await repairBytes(input)).report.findings);
    expect(readFileSync(source, 'utf8')).toBe(input);
    expect(readdirSync(folder)).toEqual(['session.jsonl']);
  });

  describe('a pass planned again from its bytes is read back from the discarded write, not applied again into a temp file', () => {
    afterEach(() => vi.restoreAllMocks());

    it.each(['file', 'in-place'] as const)('%s: the same bytes and report as applying it again, and no temp file left', async (kind) => {
      const input = cases().shared;
      const run = async (readBack: boolean) => {
        const folder = mkdtempSync(join(tmpdir(), 'td-passes-'));
        const source = join(folder, 'session.jsonl');
        writeFileSync(source, input);
        const output = kind === 'file' ? join(folder, 'out.jsonl') : source;
        const spy = vi.spyOn(AtomicFile.prototype, 'readBack');
        // Without a path the pass goes the old way: written again to a temp file and read from there.
        if (!readBack) spy.mockResolvedValue(undefined as never);
        const report = await rewriteInput(source, undefined, repairRewrite('discard'), kind === 'file' ? { kind, path: output } : { kind, backup: false, force: false });
        const calls = spy.mock.calls.length;
        spy.mockRestore();
        return { bytes: readFileSync(output), report: { ...report, path: undefined, repair: { ...report.repair, output: undefined } }, calls, files: readdirSync(folder).sort() };
      };
      const fast = await run(true);
      const slow = await run(false);
      expect(fast.calls).toBeGreaterThan(0);
      expect(fast.bytes).toEqual(slow.bytes);
      expect(fast.bytes).toEqual((await repairBytes(input)).output);
      expect(fast.report).toEqual(slow.report);
      expect(fast.files).toEqual(kind === 'file' ? ['out.jsonl', 'session.jsonl'] : ['session.jsonl']);
    });
  });
});
