import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../../src/pipeline/scan.js';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { assistant, call, jsonl, meta, output, reasoning, resetClock, tokens, turnContext, user, userEvent, type Line } from './rollout.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex');
const fixture = (name: string) => readFileSync(join(DIR, name), 'utf8');
const MODES: RepairMode[] = ['discard', 'synthetic'];

/** Each line as `type[:item type][ call id]`, to compare repaired rollouts compactly. */
function shape(lines: Line[]): string[] {
  return lines.map((value) => [value.type, value.payload?.type, value.payload?.call_id].filter((part) => part !== undefined).join(' '));
}

async function rescan(text: string): Promise<string[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'td-codex-')), 'rollout.jsonl');
  writeFileSync(file, text);
  return (await scanFile(file)).findings.map((f) => `${f.line} ${f.rule}`);
}

describe('Codex repair', () => {
  it('discard drops the unanswered call line and nothing else', async () => {
    const before = fixture('missing-tool-result.jsonl').split('\n');
    const { output, report } = await repairText(fixture('missing-tool-result.jsonl'));
    expect(output).toBe([...before.slice(0, 6), ...before.slice(7)].join('\n'));
    expect(report.repair.counts).toMatchObject({ droppedToolCalls: 1 });
    expect(report.findings).toEqual([]);
  });

  it('synthetic answers the call right after it, in Codex’s own shape, with the call’s time', async () => {
    const before = fixture('missing-tool-result.jsonl').split('\n');
    const { output, lines } = await repairText(fixture('missing-tool-result.jsonl'), 'synthetic');
    const added = { timestamp: JSON.parse(before[6]!).timestamp, type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_Vb7Kq2Lm9Xp4Rt6Ws1Yz3Na8', output: 'aborted' } };
    expect(output).toBe([...before.slice(0, 7), JSON.stringify(added), ...before.slice(7)].join('\n'));
    expect(lines[7]).toEqual(added);
  });

  it('answers a custom tool call with a custom_tool_call_output', async () => {
    const { lines } = await repairText(fixture('missing-custom-tool-result.jsonl'), 'synthetic');
    expect(shape(lines).slice(5, 9)).toEqual(['response_item reasoning', 'response_item custom_tool_call call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4', 'response_item custom_tool_call_output call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4', 'event_msg turn_aborted']);
  });

  it('drops an orphan output and the second copy of a duplicated one', async () => {
    const orphan = await repairText(fixture('orphan-tool-result.jsonl'));
    expect(shape(orphan.lines).filter((s) => s.includes('output'))).toEqual([]);
    const duplicate = await repairText(fixture('duplicate-tool-result.jsonl'));
    expect(shape(duplicate.lines).filter((s) => s.includes('custom_tool_call'))).toEqual(['response_item custom_tool_call call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4', 'response_item custom_tool_call_output call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4']);
    expect(duplicate.report.repair.lines.dropped).toEqual([8]);
  });

  it('moves an output written before its call to after the response that makes the call, in both modes, keeping the pair', async () => {
    // The call and the answer after it are one response (a run of model items): its outputs follow the whole run.
    const before = fixture('output-before-call.jsonl').split('\n');
    for (const mode of MODES) {
      const { output, report } = await repairText(fixture('output-before-call.jsonl'), mode);
      expect(output, mode).toBe([...before.slice(0, 6), before[7], before[8], before[6], ...before.slice(9)].join('\n'));
      expect(report.repair.counts, mode).toMatchObject({ movedResults: 1, droppedToolCalls: 0, addedResults: 0, droppedOrphans: 0 });
    }
  });

  it('moves an early output of one of several parallel calls after the last of them, with its siblings in call order', async () => {
    resetClock();
    const lines = [meta(), turnContext(), user('go'), reasoning(), output('custom', 'call_b'), call('function', 'call_a'), call('custom', 'call_b'), tokens(), output('function', 'call_a'), assistant('done')];
    for (const mode of MODES) {
      const { lines: after, report } = await repairText(jsonl(lines), mode);
      expect(report.findings, mode).toEqual([]);
      expect(shape(after).slice(3, 8), mode).toEqual([
        'response_item reasoning',
        'response_item function_call call_a',
        'response_item custom_tool_call call_b',
        'response_item function_call_output call_a',
        'response_item custom_tool_call_output call_b',
      ]);
    }
  });

  it('renames a reused call id on the later call and its output alike', async () => {
    const { lines } = await repairText(fixture('duplicate-tool-call-id.jsonl'));
    const ids = lines.map((value) => value.payload?.call_id).filter((id) => id !== undefined);
    expect(ids[0]).toBe('call_Lk9Jh3Gf6Ds2Ap5Oi8Uy1Tr4');
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(ids[3]).toBe(ids[2]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('keeps a response whole when a call inside it is renamed: the edited line still belongs to its run', async () => {
    resetClock();
    const lines = [meta(), turnContext(), user('go'), reasoning(), call('function', 'call_same'), call('custom', 'call_same'), tokens(), output('function', 'call_same'), output('custom', 'call_same'), assistant('done')];
    for (const mode of MODES) {
      const { output: text, report } = await repairText(jsonl(lines), mode);
      expect(report.findings, mode).toEqual([]);
      expect(await rescan(text), mode).toEqual([]);
      expect((await repairText(text, mode)).output, mode).toBe(text);
    }
  });

  it('replaces a header id that is not a UUID with the one the rollout is named after', async () => {
    const name = 'rollout-2026-03-02T09-15-00-3b8f1d2e-6c4a-4e9b-a7d5-0f2e4c6a8b1d.jsonl';
    const { lines } = await repairText(fixture('invalid-header.jsonl'), 'discard', name);
    expect(lines[0]!.payload).toEqual({ ...JSON.parse(fixture('invalid-header.jsonl').split('\n')[0]!).payload, id: '3b8f1d2e-6c4a-4e9b-a7d5-0f2e4c6a8b1d' });
  });

  it('rebuilds a lost header, its id from the file name and its working directory from the first turn_context', async () => {
    const name = 'rollout-2026-03-02T09-15-00-3b8f1d2e-6c4a-4e9b-a7d5-0f2e4c6a8b1d.jsonl';
    const { lines, output } = await repairText(fixture('missing-header.jsonl'), 'discard', name);
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { id: '3b8f1d2e-6c4a-4e9b-a7d5-0f2e4c6a8b1d', cwd: '/workspace/demo-app' } });
    expect(output.split('\n').slice(1).join('\n')).toBe(fixture('missing-header.jsonl'));
  });

  it('leaves every fixture clean in both modes, keeps every user message, and a second repair changes nothing', async () => {
    for (const name of readdirSync(DIR)) {
      const original = fixture(name);
      // A message that lost its type (a role and no type) counts as the message repair types it as.
      const prompts = original.trimEnd().split('\n').map((text) => JSON.parse(text)).filter((value) => value.type === 'response_item' && (value.payload?.type === 'message' || (value.payload?.type === undefined && value.payload?.role !== undefined))).length;
      for (const mode of MODES) {
        const once = await repairText(original, mode);
        expect(once.report.findings, `${name} ${mode}`).toEqual([]);
        expect(await rescan(once.output), `${name} ${mode}`).toEqual([]);
        expect((await repairText(once.output, mode)).output, `${name} ${mode}`).toBe(once.output);
        expect(once.lines.filter((value) => value.payload?.type === 'message' && value.payload.role === 'user').length, name).toBe(
          original.trimEnd().split('\n').filter((text) => JSON.parse(text).payload?.role === 'user').length,
        );
        expect(shape(once.lines).filter((s) => s === 'response_item message').length, name).toBe(prompts);
        if (name.startsWith('healthy')) expect(once.output, `${name} ${mode}`).toBe(original);
      }
    }
  });

  it('splits two items glued onto one line and drops a torn last line, giving back the rollout as it was', async () => {
    const healthy = fixture('healthy.jsonl').split('\n');
    const broken = [...healthy.slice(0, 12), healthy[12]! + healthy[13]!, ...healthy.slice(14, -1)].join('\n') + '\n{"timestamp":"2026-03-02T09:21:00.000Z","type":"response_item","payload":{"type":"func';
    expect((await rescan(broken)).map((finding) => finding.split(' ')[1])).toEqual(['invalid-json', 'torn-final-line']);
    for (const mode of MODES) expect((await repairText(broken, mode)).output, mode).toBe(fixture('healthy.jsonl'));
  });

  it('keeps a paginated rollout byte for byte when nothing is wrong', async () => {
    const { output, report } = await repairText(fixture('healthy-paginated.jsonl'), 'synthetic');
    expect(report.repair.changed).toBe(false);
    expect(output).toBe(fixture('healthy-paginated.jsonl'));
  });

  it('keeps user prompts copied into event lines untouched by every repair', async () => {
    resetClock();
    const lines = [meta(), turnContext(), user('please run'), userEvent('please run'), call('function', 'call_a'), user('cancel that'), userEvent('cancel that')];
    const { lines: repaired } = await repairText(jsonl(lines));
    expect(repaired.filter((value) => value.type === 'event_msg').map((value) => value.payload.message)).toEqual(['please run', 'cancel that']);
  });
});
